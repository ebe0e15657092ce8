/** @module One renderer per updater format. */
import type { RolloutMode } from './offer.ts'
import type { Renderer } from './render.ts'
import type { UpdaterFormat } from './formats.ts'
import { renderElectronUpdater } from './electron-updater.ts'
import { renderFerry } from './ferry.ts'
import { renderSquirrelMac } from './squirrel-mac.ts'
import { renderSquirrelWindows } from './squirrel-windows.ts'
import { renderSparkle } from './sparkle.ts'
import { renderTauri } from './tauri.ts'
import { renderVelopack } from './velopack.ts'

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
