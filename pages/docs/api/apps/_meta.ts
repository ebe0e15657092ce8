// Generated from openapi/openapi.yaml by scripts/gen-api.ts — do not edit
// Source: #/tags/1
export default {
  "app-introduction": "Introduction",
  "list-apps": "List the team's apps",
  create: "Create an app",
  "get-all": "List versions of all apps",
  "update-app": "Update an app",
  delete: "Delete an app",
  search: "Search one app's versions",
  upload: "Upload a version with its artifacts",
  "update-specific-version-app": "Edit a version",
  "delete-specific-version-app": "Delete a version",
  "pause-version": "Pause a rollout",
  "resume-version": "Resume a rollout",
  "pull-version": "Pull a version",
  "version-adoption": "Adoption of a version, per day",
  "delete-specific-artifact": "Delete one artifact of a version",
  download: "Download an artifact",
  "list-rules": "List an app's holds, pins and targeting rules",
  "create-rule": "Create a hold, pin or targeting rule",
  "delete-rule": "Delete a rule",
  "update-key-devices": "Devices per updater key",
}
