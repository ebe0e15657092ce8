/** @module One renderer per updater format. */
import type { Release, RolloutMode } from '../updates/offer.ts'
import type { Renderer } from './render.ts'
import type { UpdaterFormat } from './formats.ts'
import { installableFiles, renderElectronUpdater } from './electron-updater.ts'
import { renderFerry } from './ferry.ts'
import { renderSquirrelMac, zipOf } from './squirrel-mac.ts'
import { renderSquirrelWindows } from './squirrel-windows.ts'
import { archiveOf, renderSparkle } from './sparkle.ts'
import { renderTauri, signedBundle } from './tauri.ts'
import { fullPackage, renderVelopack } from './velopack.ts'

export const RENDERERS: Record<UpdaterFormat, Renderer> = {
  ferry: renderFerry,
  'squirrel-windows': renderSquirrelWindows,
  'electron-builtin': renderSquirrelMac,
  'electron-updater': renderElectronUpdater,
  tauri: renderTauri,
  velopack: renderVelopack,
  sparkle: renderSparkle,
}

/**
 * Squirrel.Windows' RELEASES lists every release up to the one offered, below the client's
 * version too; every other answer needs only the releases above the client's version.
 */
export const LISTS_OLDER_RELEASES: Record<UpdaterFormat, boolean> = {
  ferry: false,
  'squirrel-windows': true,
  'electron-builtin': false,
  'electron-updater': false,
  tauri: false,
  velopack: false,
  sparkle: false,
}

/** Protocols whose clients stage partial rollouts themselves from the percentage Ferry sends. */
export const ROLLOUT_MODE: Record<UpdaterFormat, RolloutMode> = {
  ferry: 'server',
  'squirrel-windows': 'client',
  'electron-builtin': 'server',
  'electron-updater': 'client',
  tauri: 'server',
  // Velopack's feed has no staging field; Sparkle's phased rollout is by time, not share.
  velopack: 'server',
  sparkle: 'server',
}

/**
 * Whether the format's client installs a version older than its own, which a device on a pulled
 * version is offered (see `Target.rollback`): `always`, `opt-in` (the app must allow it:
 * electron-updater's `allowDowngrade`, a Tauri `version_comparator`), or `never` (no rollback
 * is offered).
 */
export const DOWNGRADE: Record<UpdaterFormat, 'always' | 'opt-in' | 'never'> = {
  // Ferry's JSON carries `downgrade: true`; the app decides.
  ferry: 'always',
  // UpdateManager: when the local version is above every remote release it installs the newest remote full package.
  'squirrel-windows': 'always',
  // Squirrel.Mac installs whatever the server answers with; it compares no versions.
  'electron-builtin': 'always',
  'electron-updater': 'opt-in',
  tauri: 'opt-in',
  // UpdateManager's AllowVersionDowngrade (manager.rs check_for_updates).
  velopack: 'opt-in',
  // SUAppcastDriver offers only an item newer than the running version.
  sparkle: 'never',
}

/**
 * Whether the format's answer can carry a release: each renderer answers "no update" for an
 * offered release without a file its client installs (used by the explain endpoint).
 */
export const INSTALLS: Record<UpdaterFormat, (release: Release) => boolean> = {
  ferry: () => true,
  'squirrel-windows': () => true,
  'electron-builtin': (r) => zipOf(r.artifacts) !== undefined,
  'electron-updater': (r) => installableFiles(r.artifacts).length > 0,
  tauri: (r) => signedBundle(r.artifacts) !== undefined,
  velopack: (r) => fullPackage(r) !== undefined,
  sparkle: (r) => archiveOf(r.artifacts) !== undefined,
}
