/**
 * @module What each updater format is, as data: the operation its client calls, the platform its
 * path fixes, what its client does (`FormatTraits`), and how the docs name it. The server's
 * per-format object (`./index.ts`) spreads these facts and adds reading and rendering; the demo and
 * the docs' updaters table read them here, without the server's code.
 */
import type { components, operations } from '../../contract/generated/api.ts'
import type { FormatTraits } from '../updates/decide.ts'

type Schemas = components['schemas']

export type UpdaterFormat = Schemas['UpdaterFormat']

/** Tauri's `{{target}}` → Ferry platform name. */
export const TAURI_TARGETS = { windows: 'windows', darwin: 'darwin', linux: 'linux' } as const
/** Tauri's `{{arch}}` → Ferry architecture name (Node's and Electron's names). */
export const TAURI_ARCHS = { x86_64: 'x64', aarch64: 'arm64', i686: 'ia32', armv7: 'armv7l' } as const

export type TauriTarget = keyof typeof TAURI_TARGETS
export type TauriArch = keyof typeof TAURI_ARCHS

/** One updater format's facts. */
export interface FormatFacts<O extends keyof operations = keyof operations> extends FormatTraits {
  format: UpdaterFormat
  /** The operation its client calls (its path is the contract's). */
  operation: O
  /** The platform its path fixes; absent: the path or query names it. */
  platform?: string
  /** Docs (Markdown): the client that speaks it. */
  client: string
  /** Docs: the endpoint as a client's configuration writes it. */
  endpoint: string
  /** Docs (Markdown): what the docs say after the endpoint. */
  endpointNote?: string
  /** Docs: the API reference page of its operation. */
  reference: string
  /** Docs (Markdown): what the client receives when there is no update. */
  noUpdate: string
}

// `satisfies` keeps each operation's literal type, which ties a format to its operation's parameters.
export const FORMATS = {
  'squirrel-windows': {
    format: 'squirrel-windows',
    operation: 'getSquirrelReleases',
    platform: 'windows',
    client: "Squirrel.Windows, Electron's `autoUpdater` on Windows",
    endpoint: '…/squirrel/{channel}/{arch}/RELEASES',
    reference: '/docs/api/info/squirrel-windows',
    noUpdate: '`RELEASES` with nothing newer',
    // UpdateManager: when the local version is above every remote release it installs the newest remote full package.
    listsOlder: true,
    rolloutMode: 'client',
    downgrade: 'always',
  },
  'electron-builtin': {
    format: 'electron-builtin',
    operation: 'getSquirrelMacUpdate',
    platform: 'darwin',
    client: "Squirrel.Mac, Electron's `autoUpdater` on macOS",
    endpoint: '…/squirrel-mac/{channel}/{arch}?version=',
    reference: '/docs/api/info/squirrel-mac',
    noUpdate: '`204`',
    // Squirrel.Mac installs whatever the server answers with; it compares no versions.
    listsOlder: false,
    rolloutMode: 'server',
    downgrade: 'always',
  },
  'electron-updater': {
    format: 'electron-updater',
    operation: 'getElectronUpdaterFeed',
    client: "electron-updater's generic provider",
    endpoint: '…/electron-updater/{channel}/{platform}/{arch}/{version}/latest.yml',
    reference: '/docs/api/info/electron-updater',
    noUpdate: "a `latest.yml` naming the client's own version",
    listsOlder: false,
    rolloutMode: 'client',
    downgrade: 'opt-in',
  },
  tauri: {
    format: 'tauri',
    operation: 'getTauriUpdate',
    client: "Tauri v2's updater plugin",
    endpoint: '…/tauri/{channel}/{{target}}/{{arch}}/{{current_version}}',
    reference: '/docs/api/info/tauri',
    noUpdate: '`204`',
    listsOlder: false,
    rolloutMode: 'server',
    downgrade: 'opt-in',
  },
  velopack: {
    format: 'velopack',
    operation: 'getVelopackFile',
    client: "Velopack's `UpdateManager`",
    endpoint: '…/velopack/{channel}/{platform}/{arch}',
    endpointNote: '(it adds `releases.<channel>.json`)',
    reference: '/docs/api/info/velopack',
    noUpdate: '`{"Assets":[]}`',
    // Velopack's feed has no staging field; UpdateManager's AllowVersionDowngrade (manager.rs check_for_updates).
    listsOlder: false,
    rolloutMode: 'server',
    downgrade: 'opt-in',
  },
  sparkle: {
    format: 'sparkle',
    operation: 'getSparkleAppcast',
    client: 'Sparkle 2 (macOS), WinSparkle (Windows)',
    endpoint: '…/sparkle/{channel}/{platform}/{arch}/appcast.xml?version=',
    reference: '/docs/api/info/sparkle',
    noUpdate: 'an appcast without items',
    // Sparkle's phased rollout is by time, not share; SUAppcastDriver offers only an item newer than the running version.
    listsOlder: false,
    rolloutMode: 'server',
    downgrade: 'never',
  },
  msix: {
    format: 'msix',
    operation: 'getMsixUpdate',
    platform: 'windows',
    client: "Electron's `autoUpdater` in an MSIX package (Electron 39+)",
    endpoint: '…/msix/{channel}/{arch}?version=',
    reference: '/docs/api/info/msix',
    noUpdate: '`204`',
    // Electron's MSIX updater installs a lower package version only with setFeedURL's allowAnyVersion (ForceUpdateFromAnyVersion).
    listsOlder: false,
    rolloutMode: 'server',
    downgrade: 'opt-in',
  },
  ferry: {
    format: 'ferry',
    operation: 'checkForUpdate',
    client: 'Your own code',
    endpoint: '…/update?version=&platform=&arch=',
    reference: '/docs/api/info/latest',
    noUpdate: '`204`',
    // Ferry's JSON carries `downgrade: true`; the app decides.
    listsOlder: false,
    rolloutMode: 'server',
    downgrade: 'always',
  },
} as const satisfies { [F in UpdaterFormat]: FormatFacts & { format: F } }
