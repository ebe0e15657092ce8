/** The routes fixed by ../shared/spec/site-spec.md, shared by the unit and browser tests. */

/** API reference pages under /docs/api/<folder>/<slug>: operation pages and folder intros. */
export const API_SLUGS: Record<string, string[]> = {
  apps: [
    'app-introduction',
    'create',
    'delete',
    'delete-specific-artifact',
    'delete-specific-version-app',
    'download',
    'get-all',
    'list-apps',
    'search',
    'update-app',
    'update-specific-version-app',
    'upload',
  ],
  archs: ['arch-introduction', 'create', 'delete', 'get', 'update'],
  auth: ['auth-introduction', 'login', 'signup'],
  channels: ['channel-introduction', 'create', 'delete', 'get', 'update'],
  info: ['fetch-latest-build', 'health', 'info-introduction', 'latest', 'squirrel-windows', 'whoami'],
  platforms: ['create', 'delete', 'get', 'platform-introduction', 'update'],
  team: ['create', 'delete', 'list', 'update', 'updateAdmin', 'users-introduction'],
}

export const DOCS_ROUTES = [
  '/docs/intro',
  '/docs/getting-started',
  ...['docker-development', 'env-overview', 'local-deploy', 'local-development', 'logging', 'production-deploy'].map(
    (p) => `/docs/getting-started/${p}`,
  ),
  ...[
    'intermediate_build',
    'performance',
    'publishing',
    'team_based_auth',
    'telemetry',
    'troubleshooting',
    'updaters',
  ].map((p) => `/docs/${p}`),
]

export const BLOG_POSTS = [
  'electron-auto-update',
  'fetch-latest-version',
  'first-meet-ferry',
  'local-development',
  'performance-mode',
  'private-apps',
  'team-based-auth',
  'telemetry-insights',
]

export const BLOG_TAGS = [
  'analytics',
  'api',
  'auto-update',
  'development',
  'electron',
  'ferry',
  'performance',
  'security',
  'team',
  'telemetry',
]
