// Generated from openapi/openapi.yaml by scripts/gen-api.ts — do not edit
// Source: #/webhooks
export default {
  "events-introduction": "Introduction",
  "version-uploaded": "version.uploaded",
  "version-published": "version.published",
  "version-unpublished": "version.unpublished",
  "version-ramp-step": "version.ramp_step",
  "version-ramp-holding": "version.ramp_holding",
  "version-paused": "version.paused",
  "version-resumed": "version.resumed",
  "version-pulled": "version.pulled",
  "token-created": "token.created",
  "token-revoked": "token.revoked",
  "rule-created": "rule.created",
  "rule-deleted": "rule.deleted",
  "webhook-test": "webhook.test",
}
