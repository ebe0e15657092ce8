// Generated from openapi/openapi.yaml by scripts/gen-api.ts — do not edit
// Source: #/tags/2
export default {
  "channel-introduction": "Introduction",
  get: "List channels",
  create: "Create a channel",
  update: "Rename or describe a channel",
  delete: "Delete a channel",
}
