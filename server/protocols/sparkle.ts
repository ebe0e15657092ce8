/**
 * @module Sparkle 2 / WinSparkle appcast: RSS 2.0 with the `sparkle:` namespace, one `item` for
 * the version Ferry offers this client (none when it is up to date), read by Sparkle's rules
 * (sparkle-project/Sparkle `SUAppcastItem.m`, `SUAppcastDriver.m`). The XML is built here with
 * every text and attribute escaped.
 */
import type { ReleaseFile as ArtifactRow } from '../updates/offer.ts'
import type { Answer } from './answer.ts'
import type { Renderer } from './render.ts'

export const SPARKLE_NS = 'http://www.andymatuschak.org/xml-namespaces/sparkle'

/** Archives Sparkle (zip, dmg, tar.gz, pkg) and WinSparkle (exe, msi) install, in order of preference. */
const ARCHIVES = ['zip', 'dmg', 'tar.gz', 'pkg', 'exe', 'msi']
const WINDOWS = new Set(['exe', 'msi'])

const escapeXml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => `&${({ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' } as const)[c as '&']};`,
  )
// Characters XML 1.0 cannot carry at all, even escaped.
// eslint-disable-next-line no-control-regex
const xmlText = (value: string) => escapeXml(value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, ''))

const element = (name: string, value: string) => `<${name}>${xmlText(value)}</${name}>`
const attributes = (attrs: Record<string, string | number | undefined>) =>
  Object.entries(attrs)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xmlText(String(v))}"`)
    .join('')

const xmlAnswer = (body: string): Answer => ({
  status: 200,
  headers: { 'content-type': 'application/rss+xml; charset=utf-8', 'cache-control': 'no-store' },
  body,
})

/** The delta's base version: Sparkle's `generate_appcast` names deltas `<App><version>-<from>.delta`. */
export function deltaFrom(fileName: string, version: string): string | undefined {
  const at = fileName.lastIndexOf(`${version}-`)
  return at === -1 || !fileName.toLowerCase().endsWith('.delta')
    ? undefined
    : fileName.slice(at + version.length + 1, -'.delta'.length) || undefined
}

/** The archive a Sparkle item's enclosure names: a signed one first, in `ARCHIVES` order. */
export function archiveOf(artifacts: ArtifactRow[]): ArtifactRow | undefined {
  const signed = new Set(artifacts.map((a) => a.file_name))
  const rank = (a: ArtifactRow) =>
    ARCHIVES.indexOf(a.package_type) + (signed.has(`${a.file_name}.edsig`) ? 0 : ARCHIVES.length)
  return artifacts.filter((a) => ARCHIVES.includes(a.package_type)).sort((a, b) => rank(a) - rank(b))[0]
}

export const renderSparkle: Renderer = async ({ files, target, offer }) => {
  const items: string[] = []
  const artifacts = offer?.release.artifacts ?? []
  const byName = new Map(artifacts.map((a) => [a.file_name, a]))
  const edSignature = async (a: ArtifactRow) => {
    const sig = byName.get(`${a.file_name}.edsig`)
    return sig ? files.edSignature(sig) : undefined
  }
  const archive = archiveOf(artifacts)
  if (offer && archive) {
    const { row } = offer.release
    const link = (a: ArtifactRow) => files.url(row.id, a)
    const enclosure = async (a: ArtifactRow, extra: Record<string, string | undefined>) =>
      `<enclosure${attributes({
        url: await link(a),
        length: a.size,
        type: 'application/octet-stream',
        ...extra,
        'sparkle:edSignature': await edSignature(a),
        'sparkle:os': WINDOWS.has(a.package_type) ? 'windows' : undefined,
      })}/>`
    const deltas = await Promise.all(
      artifacts
        .filter((a) => a.package_type === 'delta')
        .flatMap((a) => {
          const from = deltaFrom(a.file_name, row.version)
          return from ? [enclosure(a, { 'sparkle:version': row.version, 'sparkle:deltaFrom': from })] : []
        }),
    )
    items.push(
      [
        '    <item>',
        `      ${element('title', row.version)}`,
        `      ${element('pubDate', new Date(row.published_at ?? row.created_at).toUTCString())}`,
        `      ${element('sparkle:version', row.version)}`,
        `      ${element('sparkle:shortVersionString', row.version)}`,
        ...(row.changelog ? [`      ${element('description', row.changelog)}`] : []),
        ...(row.minimum_system_version
          ? [`      ${element('sparkle:minimumSystemVersion', row.minimum_system_version)}`]
          : []),
        // Critical for every app below the offered version: this feed is this client's.
        ...(offer.critical ? [`      <sparkle:criticalUpdate${attributes({ 'sparkle:version': row.version })}/>`] : []),
        `      ${await enclosure(archive, {})}`,
        ...(deltas.length
          ? ['      <sparkle:deltas>', ...deltas.map((d) => `        ${d}`), '      </sparkle:deltas>']
          : []),
        '    </item>',
      ].join('\n'),
    )
  }
  return xmlAnswer(
    [
      '<?xml version="1.0" encoding="utf-8"?>',
      `<rss version="2.0" xmlns:sparkle="${SPARKLE_NS}">`,
      '  <channel>',
      `    ${element('title', target.app.slug)}`,
      ...items,
      '  </channel>',
      '</rss>',
      '',
    ].join('\n'),
  )
}
