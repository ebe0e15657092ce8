/**
 * @module The text of an apt repository (Debian's repository format): `Packages` stanzas from each
 * `.deb`'s control fields plus where the file lies and its hashes, and the `Release` file listing
 * every index with its size and SHA-256, and apt fetching them by hash (`by-hash/SHA256/<hash>`
 * beside each index). Pure: the caller hashes, compresses, keeps old indexes and signs.
 */

export interface AptPackage {
  /** The control fields in the package's order, `Filename`/`Size`/hashes left out. */
  fields: Array<[string, string]>
  arch: string
  /** Relative to the repository root. */
  filename: string
  size: number
  sha1: string
  sha256: string
  sha512: string
}

export interface IndexFile {
  path: string
  size: number
  sha256: string
}

/** Every repository lists these, so a machine of either finds an index (empty or not). */
const BASE_ARCHITECTURES = ['amd64', 'arm64']

/** The architectures a channel's `Release` announces: the packages' own, and amd64 and arm64; `all` goes into each. */
export function aptArchitectures(packages: ReadonlyArray<{ arch: string }>): string[] {
  return [...new Set([...BASE_ARCHITECTURES, ...packages.map((p) => p.arch).filter((a) => a !== 'all')])].sort()
}

/** The `Packages` index of one architecture: its packages and the `all` ones, stanzas in the order given. */
export function packagesIndex(packages: readonly AptPackage[], arch: string): string {
  return packages
    .filter((p) => p.arch === arch || p.arch === 'all')
    .map((p) => {
      const lines = p.fields.map(([name, value]) => `${name}: ${value}`)
      // Debian's own order puts the file fields after the package's, before Description.
      const at = p.fields.findIndex(([name]) => name.toLowerCase() === 'description')
      const file = [
        `Filename: ${p.filename}`,
        `Size: ${p.size}`,
        `SHA1: ${p.sha1}`,
        `SHA256: ${p.sha256}`,
        `SHA512: ${p.sha512}`,
      ]
      lines.splice(at < 0 ? lines.length : at, 0, ...file)
      return `${lines.join('\n')}\n`
    })
    .join('\n')
}

/** RFC 2822 date in UTC, as `Release`'s `Date` field wants it. */
export function releaseDate(date: Date): string {
  return date.toUTCString().replace('GMT', 'UTC')
}

export interface ReleaseInfo {
  origin: string
  label: string
  channel: string
  date: Date
  architectures: string[]
  files: IndexFile[]
}

/** The `Release` text (what `InRelease` clear-signs and `Release.gpg` signs). */
export function releaseFile(r: ReleaseInfo): string {
  const clean = (v: string) => v.replace(/[\r\n]+/g, ' ')
  const lines = [
    `Origin: ${clean(r.origin)}`,
    `Label: ${clean(r.label)}`,
    `Suite: ${r.channel}`,
    `Codename: ${r.channel}`,
    `Date: ${releaseDate(r.date)}`,
    `Architectures: ${r.architectures.join(' ')}`,
    'Components: main',
    'Acquire-By-Hash: yes',
    'SHA256:',
    ...r.files.map((f) => ` ${f.sha256} ${String(f.size).padStart(16)} ${f.path}`),
  ]
  return `${lines.join('\n')}\n`
}
