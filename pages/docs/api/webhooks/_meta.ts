// Generated from openapi/openapi.yaml by scripts/gen-api.ts — do not edit
// Source: #/tags/7
export default {
  "webhooks-introduction": "Introduction",
  "list-webhooks": "List webhook subscriptions",
  "create-webhook": "Create a webhook subscription",
  "get-webhook": "Get a webhook subscription",
  "update-webhook": "Update a webhook subscription",
  "delete-webhook": "Delete a webhook subscription",
  "list-webhook-deliveries": "List a subscription's deliveries",
  "redeliver-webhook": "Send a delivery again",
  "test-webhook": "Send a test event",
}
