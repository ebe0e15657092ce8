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
  apiSourceUrl: `${repository}/blob/${branch}/openapi/openapi.yaml`,
  issues: 'https://github.com/ferry-updates/ferry/issues',
  /** Where "Was this page helpful?", "Report a problem" and Try it's contract-bug link open a prefilled issue. */
  newIssue: `${repository}/issues/new`,
  /**
   * AI assistants the copy-page menu opens with a prompt that links the page's Markdown twin; the
   * prompt is appended, URL-encoded, to `href`.
   */
  assistants: [
    { label: 'ChatGPT', href: 'https://chatgpt.com/?q=' },
    { label: 'Claude', href: 'https://claude.ai/new?q=' },
  ],
  featureRequest:
    'https://github.com/ferry-updates/ferry/issues/new?labels=feature-request&template=feature_request.md',
  /** Repositories linked from the footer: one repo holds API, dashboard, website and admin. */
  repositories: [
    { label: 'Ferry server and API', href: 'https://github.com/ferry-updates/ferry/tree/main/server' },
    { label: 'Dashboard (demo)', href: 'https://github.com/ferry-updates/ferry/tree/main/components/demo' },
    { label: 'Website', href: 'https://github.com/ferry-updates/ferry/tree/main/pages' },
    { label: 'OpenAPI contract', href: 'https://github.com/ferry-updates/ferry/tree/main/openapi' },
  ],
  /**
   * Articles on other sites the footer points to: the updater guides of the frameworks Ferry
   * serves, which its own guides build on (Ferry's posts are not cross-posted anywhere).
   */
  articleSites: [
    { label: 'Electron: Updating applications', href: 'https://www.electronjs.org/docs/latest/tutorial/updates' },
    { label: 'Tauri: Updater plugin', href: 'https://v2.tauri.app/plugin/updater/' },
  ],
  announcement: {
    /** Changing the id shows the bar again to people who dismissed an earlier one. */
    id: 'announcement-2026-12-sandbox',
    text: 'Ferry is pre-release software. Try its API and console in your browser, with nothing to install',
    /** What a phone shows: one line at 360 px. */
    short: "Try Ferry's API in your browser",
    href: '/demo',
  },
} as const

export type SiteConfig = typeof siteConfig

/**
 * External pages the guides link to, keyed by a name; a guide writes the URL as a Markdown link
 * (so its Markdown twin keeps it) and tests/docs/external-links.test.ts checks it is listed here.
 * A separate export, so the site's JavaScript (which never reads it) leaves it out.
 */
export const references = {
  rfc9457: { title: 'RFC 9457: Problem Details for HTTP APIs', href: 'https://www.rfc-editor.org/rfc/rfc9457' },
  pino: { title: 'pino', href: 'https://getpino.io' },
  tuf: { title: 'The Update Framework (TUF)', href: 'https://theupdateframework.io/' },
  ferryChangelog: {
    title: "Ferry's CHANGELOG.md",
    href: 'https://github.com/ferry-updates/ferry/blob/main/CHANGELOG.md',
  },
  ferryArchitecture: {
    title: "Ferry's ARCHITECTURE.md",
    href: 'https://github.com/ferry-updates/ferry/blob/main/ARCHITECTURE.md',
  },
  tauriUpdater: { title: 'Tauri v2: Updater plugin', href: 'https://v2.tauri.app/plugin/updater/' },
  tauriSignLinux: { title: 'Tauri v2: Linux code signing', href: 'https://v2.tauri.app/distribute/sign/linux/' },
  tauriAction: { title: 'tauri-apps/tauri-action', href: 'https://github.com/tauri-apps/tauri-action' },
  tauriUpdaterSource: {
    title: 'tauri-plugin-updater: updater.rs',
    href: 'https://github.com/tauri-apps/plugins-workspace/blob/v2/plugins/updater/src/updater.rs',
  },
  mcp: { title: 'Model Context Protocol', href: 'https://modelcontextprotocol.io' },
  mcpLocalServers: {
    title: 'MCP: Connect to local MCP servers',
    href: 'https://modelcontextprotocol.io/docs/develop/connect-local-servers',
  },
  claudeCodeMcp: {
    title: 'Claude Code: Connect Claude Code to tools via MCP',
    href: 'https://code.claude.com/docs/en/mcp',
  },
  cursorMcp: { title: 'Cursor: Model Context Protocol', href: 'https://cursor.com/docs/mcp' },
  vscodeMcpConfig: {
    title: 'VS Code: MCP configuration reference',
    href: 'https://code.visualstudio.com/docs/copilot/reference/mcp-configuration',
  },
  electronAutoUpdater: {
    title: 'Electron: autoUpdater',
    href: 'https://www.electronjs.org/docs/latest/api/auto-updater',
  },
  squirrelMacCodeSignature: {
    title: 'Squirrel.Mac: SQRLCodeSignature.h',
    href: 'https://github.com/Squirrel/Squirrel.Mac/blob/master/Squirrel/SQRLCodeSignature.h',
  },
  electronBuilderAutoUpdate: { title: 'electron-builder: Auto Update', href: 'https://www.electron.build/auto-update' },
  electronBuilderWindowsSigning: {
    title: 'electron-builder: Windows code signing',
    href: 'https://www.electron.build/code-signing-win',
  },
  electronUpdaterPublisherName: {
    title: 'electron-updater 7.0.0-alpha.12 release notes',
    href: 'https://github.com/electron-userland/electron-builder/releases/tag/electron-updater@7.0.0-alpha.12',
  },
  forgeWindowsSigning: {
    title: 'Electron Forge: Signing a Windows app',
    href: 'https://www.electronforge.io/guides/code-signing/code-signing-windows',
  },
  appleNotarization: {
    title: 'Apple: Notarizing macOS software before distribution',
    href: 'https://developer.apple.com/documentation/security/notarizing-macos-software-before-distribution',
  },
  tauriV1SignLinux: {
    title: 'Tauri v1: Code signing Linux packages',
    href: 'https://tauri.app/v1/guides/distribution/sign-linux',
  },
  appImageSignatures: {
    title: 'AppImage: Signing AppImages',
    href: 'https://docs.appimage.org/packaging-guide/optional/signatures.html',
  },
  // The peers compared in "When to choose Ferry", each from its own docs or README.
  faynoSyncReadme: { title: 'faynoSync: README', href: 'https://github.com/ku9nov/faynoSync' },
  faynoSyncUpdaters: { title: 'faynoSync: Updaters support', href: 'https://faynosync.com/docs/updaters' },
  faynoSyncHealthReports: {
    title: 'faynoSync: Rollout health reports',
    href: 'https://faynosync.com/blog/rollout-health-reports',
  },
  velopackFlowTieredRollout: {
    title: 'Velopack Flow: Tiered rollout',
    href: 'https://docs.velopack.io/distributing/Flow/tiered-rollout',
  },
  crabNebulaTauriUpdates: {
    title: 'CrabNebula Cloud: Tauri auto-updates',
    href: 'https://docs.crabnebula.dev/cloud/auto-updates/tauri',
  },
  crabNebulaPackagerUpdates: {
    title: 'CrabNebula Cloud: Packager auto-updates',
    href: 'https://docs.crabnebula.dev/cloud/auto-updates/packager',
  },
  keygenSelfHosting: { title: 'Keygen: Self hosting', href: 'https://keygen.sh/docs/self-hosting/' },
  keygenApi: { title: 'Keygen: keygen-api README', href: 'https://github.com/keygen-sh/keygen-api' },
  electronBuilderKeygen: {
    title: 'electron-builder: KeygenOptions',
    href: 'https://www.electron.build/builder-util-runtime.interface.keygenoptions',
  },
  electronReleaseServer: {
    title: 'electron-release-server: README',
    href: 'https://github.com/ArekSredzki/electron-release-server',
  },
  forgeErsPublisher: {
    title: 'Electron Forge: publisher-electron-release-server',
    href: 'https://www.npmjs.com/package/@electron-forge/publisher-electron-release-server',
  },
  crabNebulaTauriGuide: {
    title: 'CrabNebula: Tauri v2 with Auto-Updater',
    href: 'https://docs.crabnebula.dev/guides/auto-updates-tauri',
  },
  keygenForGo: { title: 'Keygen: for Go programs', href: 'https://keygen.sh/for-go-programs/' },
} as const
