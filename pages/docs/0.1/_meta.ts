export default {
  intro: 'Introduction',
  'getting-started': 'Getting started',
  updaters: 'Updaters',
  intermediate_build: 'Intermediate builds',
  team_based_auth: 'Team-based auth',
  telemetry: 'Telemetry',
  performance: 'Performance mode',
  troubleshooting: 'Troubleshooting',
  api: {
    title: 'API reference',
    href: '/docs/api',
  },
}
