// Generated from openapi/openapi.yaml by scripts/gen-api.ts — do not edit
// Source: #/tags/5
export default {
  "users-introduction": "Introduction",
  list: "List team users",
  create: "Add a team user",
  update: "Change a team user",
  delete: "Remove a team user",
  updateAdmin: "Change the admin's password",
  "list-tokens": "List API tokens",
  "create-token": "Create an API token",
  "revoke-token": "Revoke an API token",
  "list-audit-entries": "List the audit log",
}
