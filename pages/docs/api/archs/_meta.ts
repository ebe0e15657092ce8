// Generated from openapi/openapi.yaml by scripts/gen-api.ts — do not edit
// Source: #/tags/4
export default {
  "arch-introduction": "Introduction",
  get: "List architectures",
  create: "Create an architecture",
  update: "Rename an architecture",
  delete: "Delete an architecture",
}
