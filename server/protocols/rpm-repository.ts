/**
 * @module The XML of an rpm-md repository (what dnf and yum read): `primary`, `filelists` and
 * `other` from each `.rpm`'s header metadata, and `repomd.xml` listing them with their checksums.
 * Pure: the caller compresses, hashes and signs.
 */
/** One `provides`/`requires`/`conflicts`/`obsoletes` entry of an `.rpm` header. */
export interface RpmDependency {
  name: string
  flags: string | null
  epoch: string | null
  ver: string | null
  rel: string | null
}
export interface RpmMetadata {
  name: string
  epoch: number
  version: string
  release: string
  arch: string
  summary: string
  description: string
  url: string
  license: string
  vendor: string
  group: string
  buildHost: string
  sourceRpm: string
  packager: string
  buildTime: number
  installedSize: number
  archiveSize: number
  headerStart: number
  headerEnd: number
  provides: RpmDependency[]
  requires: RpmDependency[]
  conflicts: RpmDependency[]
  obsoletes: RpmDependency[]
  files: Array<{ path: string; dir: boolean }>
  changelog: Array<{ author: string; date: number; text: string }>
}

export interface RpmPackage {
  meta: RpmMetadata
  href: string
  size: number
  sha256: string
  fileTime: number
}

// XML 1.0 allows no C0 controls but tab, LF and CR.
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g
export const xml = (s: string | number) =>
  String(s)
    .replace(INVALID_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
const evr = (m: RpmMetadata) => `<version epoch="${m.epoch}" ver="${xml(m.version)}" rel="${xml(m.release)}"/>`
const pkgAttrs = (p: RpmPackage) => `pkgid="${p.sha256}" name="${xml(p.meta.name)}" arch="${xml(p.meta.arch)}"`

/** createrepo's rule for which files primary carries (the rest is in filelists). */
const PRIMARY_FILE = /^(\/etc\/|\/usr\/lib\/sendmail$)|bin\//

function entries(tag: string, deps: RpmDependency[]): string {
  if (!deps.length) return ''
  const entry = (d: RpmDependency) =>
    `<rpm:entry name="${xml(d.name)}"${d.flags ? ` flags="${d.flags}" epoch="${xml(d.epoch ?? '0')}" ver="${xml(d.ver ?? '')}"${d.rel ? ` rel="${xml(d.rel)}"` : ''}` : ''}/>`
  return `\n    <rpm:${tag}>${deps.map(entry).join('')}</rpm:${tag}>`
}

export function primaryXml(packages: readonly RpmPackage[]): string {
  const body = packages
    .map((p) => {
      const m = p.meta
      const files = m.files
        .filter((f) => PRIMARY_FILE.test(f.path))
        .map((f) => `\n    <file${f.dir ? ' type="dir"' : ''}>${xml(f.path)}</file>`)
        .join('')
      return `<package type="rpm">
  <name>${xml(m.name)}</name>
  <arch>${xml(m.arch)}</arch>
  ${evr(m)}
  <checksum type="sha256" pkgid="YES">${p.sha256}</checksum>
  <summary>${xml(m.summary)}</summary>
  <description>${xml(m.description)}</description>
  <packager>${xml(m.packager)}</packager>
  <url>${xml(m.url)}</url>
  <time file="${p.fileTime}" build="${m.buildTime}"/>
  <size package="${p.size}" installed="${m.installedSize}" archive="${m.archiveSize}"/>
  <location href="${xml(p.href)}"/>
  <format>
    <rpm:license>${xml(m.license)}</rpm:license>
    <rpm:vendor>${xml(m.vendor)}</rpm:vendor>
    <rpm:group>${xml(m.group)}</rpm:group>
    <rpm:buildhost>${xml(m.buildHost)}</rpm:buildhost>
    <rpm:sourcerpm>${xml(m.sourceRpm)}</rpm:sourcerpm>
    <rpm:header-range start="${m.headerStart}" end="${m.headerEnd}"/>${entries('provides', m.provides)}${entries('requires', m.requires)}${entries('conflicts', m.conflicts)}${entries('obsoletes', m.obsoletes)}${files}
  </format>
</package>
`
    })
    .join('')
  return `${HEAD}<metadata xmlns="http://linux.duke.edu/metadata/common" xmlns:rpm="http://linux.duke.edu/metadata/rpm" packages="${packages.length}">\n${body}</metadata>\n`
}

export function filelistsXml(packages: readonly RpmPackage[]): string {
  const body = packages
    .map(
      (p) =>
        `<package ${pkgAttrs(p)}>\n  ${evr(p.meta)}${p.meta.files.map((f) => `\n  <file${f.dir ? ' type="dir"' : ''}>${xml(f.path)}</file>`).join('')}\n</package>\n`,
    )
    .join('')
  return `${HEAD}<filelists xmlns="http://linux.duke.edu/metadata/filelists" packages="${packages.length}">\n${body}</filelists>\n`
}

export function otherXml(packages: readonly RpmPackage[]): string {
  const body = packages
    .map(
      (p) =>
        `<package ${pkgAttrs(p)}>\n  ${evr(p.meta)}${p.meta.changelog.map((c) => `\n  <changelog author="${xml(c.author)}" date="${c.date}">${xml(c.text)}</changelog>`).join('')}\n</package>\n`,
    )
    .join('')
  return `${HEAD}<otherdata xmlns="http://linux.duke.edu/metadata/other" packages="${packages.length}">\n${body}</otherdata>\n`
}

export interface RepomdEntry {
  type: 'primary' | 'filelists' | 'other'
  href: string
  sha256: string
  size: number
  openSha256: string
  openSize: number
}

export function repomdXml(revision: number, data: readonly RepomdEntry[]): string {
  const items = data
    .map(
      (d) => `  <data type="${d.type}">
    <checksum type="sha256">${d.sha256}</checksum>
    <open-checksum type="sha256">${d.openSha256}</open-checksum>
    <location href="${xml(d.href)}"/>
    <timestamp>${revision}</timestamp>
    <size>${d.size}</size>
    <open-size>${d.openSize}</open-size>
  </data>
`,
    )
    .join('')
  return `${HEAD}<repomd xmlns="http://linux.duke.edu/metadata/repo" xmlns:rpm="http://linux.duke.edu/metadata/rpm">\n  <revision>${revision}</revision>\n${items}</repomd>\n`
}
