/** @module Each updater format as one object: its renderer and what its client does. */
import type { FormatTraits } from '../updates/decide.ts'
import type { Release } from '../updates/offer.ts'
import type { Renderer } from './render.ts'
import type { UpdaterFormat } from './formats.ts'
import { installableFiles, renderElectronUpdater } from './electron-updater.ts'
import { renderFerry } from './ferry.ts'
import { renderSquirrelMac, zipOf } from './squirrel-mac.ts'
import { renderSquirrelWindows } from './squirrel-windows.ts'
import { archiveOf, renderSparkle } from './sparkle.ts'
import { renderTauri, signedBundle } from './tauri.ts'
import { fullPackage, renderVelopack } from './velopack.ts'
import { msixOf, renderMsixFeed } from './msix.ts'

/** One updater format: its renderer, and what its client does (`FormatTraits`). */
export interface UpdaterProtocol extends FormatTraits {
  render: Renderer
  /**
   * Whether the answer can carry this release: each renderer answers "no update" for an offered
   * release without a file its client installs (used by the explain endpoint).
   */
  installs: (release: Release) => boolean
}

export const PROTOCOLS: Record<UpdaterFormat, UpdaterProtocol> = {
  // Ferry's JSON carries `downgrade: true`; the app decides.
  ferry: { render: renderFerry, listsOlder: false, rolloutMode: 'server', downgrade: 'always', installs: () => true },
  // UpdateManager: when the local version is above every remote release it installs the newest remote full package.
  'squirrel-windows': {
    render: renderSquirrelWindows,
    listsOlder: true,
    rolloutMode: 'client',
    downgrade: 'always',
    installs: () => true,
  },
  // Squirrel.Mac installs whatever the server answers with; it compares no versions.
  'electron-builtin': {
    render: renderSquirrelMac,
    listsOlder: false,
    rolloutMode: 'server',
    downgrade: 'always',
    installs: (r) => zipOf(r.artifacts) !== undefined,
  },
  'electron-updater': {
    render: renderElectronUpdater,
    listsOlder: false,
    rolloutMode: 'client',
    downgrade: 'opt-in',
    installs: (r) => installableFiles(r.artifacts).length > 0,
  },
  tauri: {
    render: renderTauri,
    listsOlder: false,
    rolloutMode: 'server',
    downgrade: 'opt-in',
    installs: (r) => signedBundle(r.artifacts) !== undefined,
  },
  // Velopack's feed has no staging field; UpdateManager's AllowVersionDowngrade (manager.rs check_for_updates).
  velopack: {
    render: renderVelopack,
    listsOlder: false,
    rolloutMode: 'server',
    downgrade: 'opt-in',
    installs: (r) => fullPackage(r) !== undefined,
  },
  // Sparkle's phased rollout is by time, not share; SUAppcastDriver offers only an item newer than the running version.
  sparkle: {
    render: renderSparkle,
    listsOlder: false,
    rolloutMode: 'server',
    downgrade: 'never',
    installs: (r) => archiveOf(r.artifacts) !== undefined,
  },
  // Electron's MSIX updater installs a lower package version only with setFeedURL's allowAnyVersion (ForceUpdateFromAnyVersion).
  msix: {
    render: renderMsixFeed,
    listsOlder: false,
    rolloutMode: 'server',
    downgrade: 'opt-in',
    installs: (r) => msixOf(r.artifacts) !== undefined,
  },
}
