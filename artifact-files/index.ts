/** @module Artifact file names: what is accepted, and the package type each extension means. */
import type { components } from '../server/generated/api.ts'

type Schemas = components['schemas']

/** Longest suffix first, so `.tar.gz` wins over `.gz`. */
const EXTENSIONS: [string, Schemas['PackageType']][] = [
  ['.edsig', 'edsig'], ['.sig', 'sig'], ['.delta', 'delta'], ['.tar.gz', 'tar.gz'], ['.appimage', 'appimage'], ['.blockmap', 'blockmap'], ['.nupkg', 'nupkg'],
  ['.yaml', 'yml'], ['.exe', 'exe'], ['.msi', 'msi'], ['.dmg', 'dmg'], ['.pkg', 'pkg'], ['.zip', 'zip'],
  ['.deb', 'deb'], ['.rpm', 'rpm'], ['.snap', 'snap'], ['.yml', 'yml'],
]

export function packageTypeOf(fileName: string): Schemas['PackageType'] | undefined {
  const lower = fileName.toLowerCase()
  return EXTENSIONS.find(([ext]) => lower.endsWith(ext))?.[1]
}

/**
 * Why a file name is refused, or `undefined` when it is fine. Names are stored as metadata
 * only (blobs are keyed by artifact id), but they end up in `Content-Disposition` and in
 * users' download folders, so anything path-like is refused.
 */
export function fileNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'has no file name'
  if (name.length > 255) return 'file name is longer than 255 characters'
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f"]/.test(name)) return `file name ${JSON.stringify(name)} contains control characters or quotes`
  if (/[/\\]/.test(name) || name === '.' || name === '..' || name.startsWith('.')) {
    return `file name ${JSON.stringify(name)} must be a plain file name (no path, not starting with a dot)`
  }
  if (!packageTypeOf(name)) return `file name ${JSON.stringify(name)} has no known package extension`
  return undefined
}

/** The file a signature file signs: `<file>.sig` (Tauri) or `<file>.edsig` (Sparkle); `undefined` for other files. */
export function signedFileOf(name: string): string | undefined {
  const type = packageTypeOf(name)
  return type === 'sig' ? name.slice(0, -'.sig'.length) : type === 'edsig' ? name.slice(0, -'.edsig'.length) : undefined
}

/**
 * Problems of a whole upload's file names: a signature (`<bundle>.sig` for Tauri, `<file>.edsig`
 * for Sparkle) must arrive with the file it signs, because the answers offer only files whose
 * signature was uploaded with them, and uploads are checked against the app's keys.
 */
export function uploadSetProblems(names: string[]): string[] {
  const present = new Set(names)
  return names.flatMap((n) => {
    const signed = signedFileOf(n)
    const what = packageTypeOf(n) === 'sig' ? 'bundle' : 'file'
    return signed !== undefined && !present.has(signed) ? [`signature ${JSON.stringify(n)} has no ${what} ${JSON.stringify(signed)} in this upload`] : []
  })
}
