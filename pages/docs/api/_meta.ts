// Generated from openapi/openapi.yaml by scripts/gen-api.ts — do not edit
// Source: #/tags
export default {
  index: "Overview",
  changelog: "Changelog",
  auth: "Authentication",
  apps: "Apps",
  channels: "Channels",
  platforms: "Platforms",
  archs: "Architectures",
  team: "Team users",
  info: "Info and updates",
  webhooks: "Webhooks",
  events: "Webhook events",
}
