/**
 * @module What a build output's file names say: the package type (Ferry's own list, from
 * `contract/artifact-files.ts`), the version and the architecture.
 */
import { packageTypeOf } from '../../contract/artifact-files.ts'

export { packageTypeOf }

/** The name without `.sig`/`.blockmap` and without its package extension: `App-1.2.0-arm64-mac`. */
export function stemOf(name: string): string {
  let stem = name.replace(/\.(sig|blockmap)$/i, '')
  const type = packageTypeOf(stem)
  if (type) stem = stem.slice(0, type === 'tar.gz' ? -'.tar.gz'.length : stem.lastIndexOf('.'))
  return stem
}

/**
 * A version in a file name: `1.2.0`, or with a pre-release whose label says so (`1.2.0-beta.1`),
 * so that `1.2.0-arm64-mac` reads as 1.2.0 on arm64 rather than as a pre-release `arm64-mac`.
 */
const VERSION =
  /(?<![0-9A-Za-z.])(\d+\.\d+\.\d+(?:-(?:alpha|beta|rc|pre|preview|dev|canary|next|nightly)(?:\.?[0-9A-Za-z]+)*)?)(?![0-9A-Za-z])/i

export function versionInName(name: string): string | undefined {
  return VERSION.exec(stemOf(name))?.[1]
}

/**
 * Architecture names as build tools write them → Ferry's names (Node's and Electron's, the
 * ones `server/protocols/formats.ts` maps Tauri's `x86_64`/`aarch64`/`i686`/`armv7` to).
 */
const ARCH_ALIASES: Record<string, string> = {
  x86_64: 'x64',
  x64: 'x64',
  amd64: 'x64',
  aarch64: 'arm64',
  arm64: 'arm64',
  i686: 'ia32',
  i386: 'ia32',
  ia32: 'ia32',
  x86: 'ia32',
  armv7l: 'armv7l',
  armv7: 'armv7l',
  armhf: 'armv7l',
  universal: 'universal',
}
const ARCH =
  /(?<![0-9A-Za-z])(x86_64|x64|amd64|aarch64|arm64|i686|i386|ia32|x86|armv7l|armv7|armhf|universal)(?![0-9A-Za-z])/i

/** The Ferry architecture a name (or folder name) spells, or `undefined` when it names none. */
export function archInName(name: string): string | undefined {
  const token = ARCH.exec(stemOf(name))?.[1]
  return token ? ARCH_ALIASES[token.toLowerCase()] : undefined
}
