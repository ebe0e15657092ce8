// Generated from openapi/openapi.yaml by scripts/gen-api.ts — do not edit
// Source: #/tags/3
export default {
  "platform-introduction": "Introduction",
  get: "List platforms",
  create: "Create a platform",
  update: "Change a platform",
  delete: "Delete a platform",
}
