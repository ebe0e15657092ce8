import { versions } from '../../lib/docs-versions'

export default {
  intro: 'Introduction',
  'when-to-choose-ferry': 'When to choose Ferry',
  'getting-started': 'Getting started',
  'quickstart-electron': 'Quickstart: Electron',
  'quickstart-tauri': 'Quickstart: Tauri v2',
  updaters: 'Updaters',
  intermediate_build: 'Intermediate builds',
  team_based_auth: 'Team-based auth',
  'audit-log': 'Audit log',
  publishing: 'Publishing from CI',
  rollouts: 'Rollouts',
  webhooks: 'Webhooks',
  'code-signing': 'Code signing',
  'linux-repositories': 'Linux repositories',
  migrating: 'Migrating to Ferry',
  telemetry: 'Telemetry',
  console: 'Ferry Console',
  performance: 'Performance mode',
  troubleshooting: 'Troubleshooting',
  mcp: 'Agents (MCP)',
  'writing-docs': 'Writing docs',
  '--api': { type: 'separator', title: 'Reference' },
  api: 'API reference',
  // Frozen versions (npm run docs:version) own their routes and sidebar under /docs/<id>.
  ...Object.fromEntries(versions.map((v) => [v.id, { type: 'page', title: `Docs ${v.label}` }])),
}
