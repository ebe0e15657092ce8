/** @module Artifact file names: what is accepted, and the package type each extension means. */
import type { components } from './generated/api.ts'

type Schemas = components['schemas']

/** Longest suffix first, so `.tar.gz` wins over `.gz`. */
const EXTENSIONS: [string, Schemas['PackageType']][] = [
  ['.edsig', 'edsig'],
  ['.sig', 'sig'],
  ['.delta', 'delta'],
  ['.tar.gz', 'tar.gz'],
  ['.appimage', 'appimage'],
  ['.blockmap', 'blockmap'],
  ['.nupkg', 'nupkg'],
  ['.msixbundle', 'msixbundle'],
  ['.msix', 'msix'],
  ['.yaml', 'yml'],
  ['.exe', 'exe'],
  ['.msi', 'msi'],
  ['.dmg', 'dmg'],
  ['.pkg', 'pkg'],
  ['.zip', 'zip'],
  ['.deb', 'deb'],
  ['.rpm', 'rpm'],
  ['.snap', 'snap'],
  ['.yml', 'yml'],
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
  if (/[\u0000-\u001f\u007f"]/.test(name))
    return `file name ${JSON.stringify(name)} contains control characters or quotes`
  if (/[/\\]/.test(name) || name === '.' || name === '..' || name.startsWith('.')) {
    return `file name ${JSON.stringify(name)} must be a plain file name (no path, not starting with a dot)`
  }
  if (!packageTypeOf(name)) return `file name ${JSON.stringify(name)} has no known package extension`
  return undefined
}

/**
 * What a package feed may carry of a `.nupkg` name: Squirrel.Windows' RELEASES splits each line at
 * whitespace and reads `#` as the start of a comment, and Squirrel.Windows and Velopack both fetch
 * the name as a bare path next to the feed, so anything a URL would have to escape is out.
 */
const FEED_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]*\.nupkg$/i
const SQUIRREL_SUFFIX = /(-full|-delta)?\.nupkg$/i
// SemVer 1.0, as NuGet's SemanticVersion parses it: a prerelease without dots (`beta1`, not `beta.1`).
const SQUIRREL_VERSION = /\d+(\.\d+){0,3}(-[A-Za-z][0-9A-Za-z-]*)?$/

/** The version Squirrel.Windows reads from a package name (its ReleaseEntry's regular expressions). */
export function squirrelVersionOf(name: string): string | undefined {
  return SQUIRREL_VERSION.exec(name.replace(SQUIRREL_SUFFIX, ''))?.[0]
}

/**
 * Why Squirrel.Windows cannot list a `.nupkg` of `version`, or `undefined`: it reads the version
 * from the name as SemVer 1.0, and one name it cannot read makes it refuse the whole RELEASES.
 */
export function squirrelNameProblem(name: string, version: string): string | undefined {
  if (packageTypeOf(name) !== 'nupkg' || squirrelVersionOf(name) === version) return undefined
  return (
    `package ${JSON.stringify(name)} is for Squirrel.Windows, which reads versions as SemVer 1.0 and cannot read ${version} ` +
    "from its name: a prerelease may hold letters, digits and '-' but no dots (beta1, not beta.1)"
  )
}

/** A stored package name every feed can carry (names stored before uploads were checked may not be). */
export const isFeedName = (name: string) => FEED_NAME.test(name)

/**
 * Why a `.nupkg` of `version` cannot go into a Squirrel.Windows or Velopack feed, or `undefined`
 * (other files are never listed by name). One bad name would break the feed of the whole channel.
 */
export function feedNameProblem(name: string, version: string): string | undefined {
  if (packageTypeOf(name) !== 'nupkg') return undefined
  if (!isFeedName(name)) {
    return (
      `package ${JSON.stringify(name)} may hold only letters, digits, '.', '_', '+' and '-', starting with a letter or digit: ` +
      'Squirrel.Windows and Velopack feeds carry it as a bare path'
    )
  }
  const lower = name.toLowerCase()
  const at = lower.indexOf(`-${version.toLowerCase()}`)
  const after = at < 0 ? '' : lower.charAt(at + version.length + 1)
  if (at <= 0 || (after !== '-' && after !== '.' && after !== '+')) {
    return `package ${JSON.stringify(name)} must be named <id>-${version}[-full|-delta].nupkg: Squirrel.Windows and Velopack read the version from the name`
  }
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
    return signed !== undefined && !present.has(signed)
      ? [`signature ${JSON.stringify(n)} has no ${what} ${JSON.stringify(signed)} in this upload`]
      : []
  })
}
