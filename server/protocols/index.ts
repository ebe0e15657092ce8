/** @module One renderer per updater format. */
import type { RolloutMode } from './offer.ts'
import type { Renderer } from './render.ts'
import type { UpdaterFormat } from './formats.ts'
import { renderElectronUpdater } from './electron-updater.ts'
import { renderFerry } from './ferry.ts'
import { renderSquirrelMac } from './squirrel-mac.ts'
import { renderSquirrelWindows } from './squirrel-windows.ts'
import { renderTauri } from './tauri.ts'

export const RENDERERS: Record<UpdaterFormat, Renderer> = {
  ferry: renderFerry,
  'squirrel-windows': renderSquirrelWindows,
  'electron-builtin': renderSquirrelMac,
  'electron-updater': renderElectronUpdater,
  tauri: renderTauri,
}

/** Protocols whose clients stage partial rollouts themselves from the percentage Ferry sends. */
export const ROLLOUT_MODE: Record<UpdaterFormat, RolloutMode> = {
  ferry: 'server',
  'squirrel-windows': 'client',
  'electron-builtin': 'server',
  'electron-updater': 'client',
  tauri: 'server',
}
