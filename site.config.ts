/**
 * The one place for the site's identity and every external link.
 * Components, feeds and the sitemap read from here; change a URL once.
 */
const repository = 'https://github.com/ferry-updates/ferry'
/** The branch the site is built from; "Edit this page" links open files on it. */
const branch = 'main'

export const siteConfig = {
  name: 'Ferry',
  tagline: 'A self-hosted update server for desktop apps',
  description:
    'Ferry stores your app versions and artifacts per channel, platform and architecture, and answers the update checks of installed Electron, Tauri, Squirrel and native apps.',
  /** Absolute origin the site is published at; used in feeds, the sitemap and Open Graph tags. */
  url: 'https://ferry.example.org',
  locale: 'en',
  repository,
  branch,
  docsRepositoryBase: `${repository}/tree/${branch}`,
  /** The file the API reference pages are generated from (`npm run gen`); their edit links open it. */
  apiSource: 'openapi/openapi.yaml',
  issues: 'https://github.com/ferry-updates/ferry/issues',
  featureRequest:
    'https://github.com/ferry-updates/ferry/issues/new?labels=feature-request&template=feature_request.md',
  /** Repositories linked from the footer: one repo holds API, dashboard, website and admin. */
  repositories: [
    { label: 'Ferry server and API', href: 'https://github.com/ferry-updates/ferry/tree/main/server' },
    { label: 'Dashboard (demo)', href: 'https://github.com/ferry-updates/ferry/tree/main/components/demo' },
    { label: 'Website', href: 'https://github.com/ferry-updates/ferry/tree/main/pages' },
    { label: 'OpenAPI contract', href: 'https://github.com/ferry-updates/ferry/tree/main/openapi' },
  ],
  /** Article sites where posts about Ferry are cross-posted. */
  articleSites: [
    { label: 'DEV Community', href: 'https://dev.to/t/ferry' },
    { label: 'Hashnode', href: 'https://hashnode.com/n/ferry' },
  ],
  announcement: {
    /** Changing the id shows the bar again to people who dismissed an earlier one. */
    id: 'announcement-2026-11-api-v1',
    text: 'Ferry’s API v1 contract is published: read the reference or try it in your browser.',
    href: '/docs/api',
  },
} as const

export type SiteConfig = typeof siteConfig
