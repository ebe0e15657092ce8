// Generated from openapi/openapi.yaml by scripts/gen-api.ts — do not edit
// Source: #/tags/0
export default {
  "auth-introduction": "Introduction",
  signup: "Create a team and its admin",
  login: "Exchange credentials for a bearer token",
}
