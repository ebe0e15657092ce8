/** @module Updater formats and the names Tauri's updater puts in its endpoint URL. */
import type { components } from '../../contract/generated/api.ts'

type Schemas = components['schemas']

export type UpdaterFormat = Schemas['UpdaterFormat']

/** Tauri's `{{target}}` → Ferry platform name. */
export const TAURI_TARGETS = { windows: 'windows', darwin: 'darwin', linux: 'linux' } as const
/** Tauri's `{{arch}}` → Ferry architecture name (Node's and Electron's names). */
export const TAURI_ARCHS = { x86_64: 'x64', aarch64: 'arm64', i686: 'ia32', armv7: 'armv7l' } as const

export type TauriTarget = keyof typeof TAURI_TARGETS
export type TauriArch = keyof typeof TAURI_ARCHS
