// Generated from openapi/openapi.yaml by scripts/gen-api.ts — do not edit
// Source: #/tags/6
export default {
  "info-introduction": "Introduction",
  health: "Liveness and dependency status",
  whoami: "Who am I",
  latest: "Check for an update",
  "explain-update": "Explain an update check",
  "report-update-outcome": "Report an update's outcome",
  "fetch-latest-build": "Permanent link to the newest build",
  "squirrel-windows": "Squirrel.Windows RELEASES feed",
  "squirrel-windows-package": "Squirrel.Windows package",
  "squirrel-mac": "Squirrel.Mac update (Electron autoUpdater)",
  "electron-updater": "electron-updater channel file (generic provider)",
  tauri: "Tauri v2 update",
  "electron-updater-file": "electron-updater file and blockmap",
  velopack: "Velopack feed and packages",
  sparkle: "Sparkle / WinSparkle appcast",
  telemetry: "Update-check telemetry",
}
