/**
 * Sparkle 2's appcast reading and item choice, redone in TypeScript (Sparkle is Objective-C and
 * runs only on macOS). Follows sparkle-project/Sparkle at fa4eaa9:
 * - `SUAppcast.m` `parseAppcastItemsFromXMLData`: items at `/rss/channel/item`; names in the Sparkle
 *   namespace URI become `sparkle:<local name>` whatever the prefix; `enclosure` and
 *   `sparkle:criticalUpdate` become their attributes, `sparkle:deltas` a list of enclosures'
 *   attributes, `sparkle:tags` the names of its children, other elements their trimmed text.
 * - `SUAppcastItem.m` `initWithDictionary`: the version from the enclosure's `sparkle:version`, else
 *   the item's, else the URL after its last `_`; an item without enclosure URL fails; the URL must
 *   be http(s); `length`; `sparkle:edSignature`; `sparkle:os`; deltas keyed by `sparkle:deltaFrom`.
 * - `SPUAppcastItemStateResolver.m`: critical when `sparkle:criticalUpdate` (or the tag) is present
 *   and has no `sparkle:version`, or the host is below that version; minimum/maximum system version.
 * - `SUAppcastDriver.m`: `filterAppcast:forMacOSAndAllowedChannels:` (other OSes and delta items
 *   out; an item's `sparkle:channel` must be allowed), `filterSupportedAppcast:…` (OS versions,
 *   `itemIsReadyForPhasedRollout:` — critical updates skip phasing), `bestItemFromAppcastItems:`
 *   (highest version, first of equals), `isItemNewer:` and the delta for the host's version.
 * - `SUStandardVersionComparator.m`: the version comparison, including that it stops at the first `-`.
 */
import { xml2js, type Element } from 'xml-js'

export const SPARKLE_NS = 'http://www.andymatuschak.org/xml-namespaces/sparkle'

type Attrs = Record<string, string>

export interface AppcastItem {
  title: string | undefined
  versionString: string
  displayVersionString: string
  date: Date | undefined
  fileURL: URL
  contentLength: number
  edSignature: string | undefined
  os: string | undefined
  channel: string | undefined
  minimumSystemVersion: string | undefined
  maximumSystemVersion: string | undefined
  phasedRolloutInterval: number | undefined
  criticalUpdate: Attrs | undefined
  releaseNotesLink: string | undefined
  itemDescription: string | undefined
  isDeltaUpdate: boolean
  deltaFrom: string | undefined
  deltaUpdates: Map<string, AppcastItem>
}

// ---- SUStandardVersionComparator ----------------------------------------------------------

type CharType = 'number' | 'string' | 'period' | 'punctuation' | 'whitespace' | 'dash'

function typeOf(part: string): CharType {
  const c = part[0] ?? ''
  if (c === '.') return 'period'
  if (c === '-') return 'dash'
  if (/\p{Nd}/u.test(c)) return 'number'
  if (/\s/u.test(c)) return 'whitespace'
  if (/\p{P}/u.test(c)) return 'punctuation'
  return 'string'
}
const isSeparator = (t: CharType) => t === 'period' || t === 'punctuation' || t === 'whitespace'
const sameClass = (a: CharType, b: CharType) => (isSeparator(a) ? isSeparator(b) : a === b)

function split(version: string): string[] {
  const parts: string[] = []
  if (version.length === 0) return parts
  let s = version[0] as string
  let old = typeOf(s)
  for (const c of version.slice(1)) {
    const t = typeOf(c)
    if (t === 'dash') break
    if (old !== t || isSeparator(old)) {
      parts.push(s)
      s = c
    } else s += c
    old = t
  }
  parts.push(s)
  return parts
}

const numberPeriodPrefix = (parts: string[]) => {
  let n = 0
  for (const p of parts) {
    const t = typeOf(p)
    if (t === 'number' || t === 'period') n++
    else break
  }
  return n
}

function balance(a: string[], b: string[]) {
  const na = numberPeriodPrefix(a)
  const nb = numberPeriodPrefix(b)
  const pad = (to: string[], toCount: number, from: string[], fromCount: number) => {
    for (let i = toCount; i < fromCount; i++) to.splice(i, 0, typeOf(from[i] as string) === 'period' ? '.' : '0')
  }
  if (na > nb) pad(b, nb, a, na)
  else if (nb > na) pad(a, na, b, nb)
}

/** `compareVersion:toVersion:`: negative when `a` < `b`. */
export function compareVersions(a: string, b: string): number {
  const pa = split(a)
  const pb = split(b)
  balance(pa, pb)
  const n = Math.min(pa.length, pb.length)
  for (let i = 0; i < n; i++) {
    const x = pa[i] as string
    const y = pb[i] as string
    const tx = typeOf(x)
    const ty = typeOf(y)
    if (sameClass(tx, ty)) {
      if (tx === 'number') {
        const d = Number(x) - Number(y)
        if (d !== 0) return Math.sign(d)
      } else if (tx === 'string' && x !== y) return x < y ? -1 : 1
    } else if (tx !== 'string' && ty === 'string') return 1
    else if (tx === 'string' && ty !== 'string') return -1
    else return tx === 'number' ? 1 : -1
  }
  if (pa.length !== pb.length) {
    const longerIsA = pa.length > pb.length
    const missing = (longerIsA ? pa : pb)[n] as string
    const shorterWins = typeOf(missing) === 'string'
    return (longerIsA ? 1 : -1) * (shorterWins ? -1 : 1)
  }
  return 0
}

// ---- SUAppcast: XML → dictionaries --------------------------------------------------------

type Namespaces = Map<string, string>

function withDeclarations(ns: Namespaces, el: Element): Namespaces {
  const decl = Object.entries(el.attributes ?? {}).filter(([k]) => k === 'xmlns' || k.startsWith('xmlns:'))
  if (decl.length === 0) return ns
  const next = new Map(ns)
  for (const [k, v] of decl) next.set(k === 'xmlns' ? '' : k.slice(6), String(v))
  return next
}

/** `sparkleNamespacedNameOfNode:` — by namespace URI, not prefix. Unprefixed attributes have no namespace. */
function nameOf(qualified: string, ns: Namespaces, isAttribute: boolean): string {
  const colon = qualified.indexOf(':')
  const prefix = colon === -1 ? '' : qualified.slice(0, colon)
  const uri = colon === -1 && isAttribute ? undefined : ns.get(prefix)
  return uri === SPARKLE_NS ? `sparkle:${qualified.slice(colon + 1)}` : qualified
}

function attributesOf(el: Element, ns: Namespaces): Attrs {
  const scope = withDeclarations(ns, el)
  return Object.fromEntries(
    Object.entries(el.attributes ?? {})
      .filter(([k]) => k !== 'xmlns' && !k.startsWith('xmlns:'))
      .map(([k, v]) => [nameOf(k, scope, true), String(v)]),
  )
}

const textOf = (el: Element): string =>
  (el.elements ?? [])
    .map((c) =>
      c.type === 'text' || c.type === 'cdata' ? String(c.text ?? c.cdata ?? '') : c.type === 'element' ? textOf(c) : '',
    )
    .join('')
const childElements = (el: Element) => (el.elements ?? []).filter((c) => c.type === 'element')

type ItemDict = Map<string, unknown>

function itemDictionary(item: Element, ns: Namespaces): ItemDict {
  const scope = withDeclarations(ns, item)
  const byName = new Map<string, Element[]>()
  for (const child of childElements(item)) {
    const name = nameOf(child.name ?? '', withDeclarations(scope, child), false)
    byName.set(name, [...(byName.get(name) ?? []), child])
  }
  const dict: ItemDict = new Map()
  for (const [name, nodes] of byName) {
    // bestNodeInNodes: the node in the user's language; these appcasts carry one of each.
    const node = nodes[0] as Element
    const nodeScope = withDeclarations(scope, node)
    if (name === 'enclosure' || name === 'sparkle:criticalUpdate') dict.set(name, attributesOf(node, scope))
    else if (name === 'pubDate' || name === 'description') dict.set(name, textOf(node))
    else if (name === 'sparkle:deltas') {
      dict.set(
        name,
        childElements(node)
          .filter((c) => nameOf(c.name ?? '', nodeScope, false) === 'enclosure')
          .map((c) => attributesOf(c, nodeScope)),
      )
    } else if (name === 'sparkle:tags')
      dict.set(
        name,
        childElements(node).map((c) => nameOf(c.name ?? '', nodeScope, false)),
      )
    else {
      const value = textOf(node).trim()
      if (value) dict.set(name, value)
    }
  }
  return dict
}

const str = (d: ItemDict, k: string) => {
  const v = d.get(k)
  return typeof v === 'string' ? v : undefined
}

/** `SUAppcastItem initWithDictionary:relativeToURL:…`; throws the failure reason. */
function toItem(dict: ItemDict, appcastUrl: URL): AppcastItem {
  const enclosure = dict.get('enclosure') as Attrs | undefined
  let version = enclosure?.['sparkle:version'] ?? str(dict, 'sparkle:version')
  if (version === undefined) {
    const parts = (enclosure?.url ?? '').split('_')
    if (parts.length > 1) version = (parts[parts.length - 1] as string).replace(/\.[^./]*$/, '')
  }
  if (version === undefined)
    throw new Error("Feed item lacks sparkle:version element, and version couldn't be deduced from file name")
  if (!enclosure) throw new Error('No enclosure in feed item')
  if (!enclosure.url) throw new Error("Feed item's enclosure lacks URL")
  const fileURL = new URL(enclosure.url.replaceAll(' ', '%20'), appcastUrl)
  if (fileURL.protocol !== 'http:' && fileURL.protocol !== 'https:')
    throw new Error('File URLs must have a http or https URL scheme')
  const length = Number.parseInt(enclosure.length ?? '0', 10)
  const tags = dict.get('sparkle:tags')
  const criticalUpdate =
    (dict.get('sparkle:criticalUpdate') as Attrs | undefined) ??
    (Array.isArray(tags) && tags.includes('sparkle:criticalUpdate') ? {} : undefined)
  const interval = str(dict, 'sparkle:phasedRolloutInterval')
  const pubDate = str(dict, 'pubDate')
  const deltaUpdates = new Map<string, AppcastItem>()
  for (const delta of (dict.get('sparkle:deltas') as Attrs[] | undefined) ?? []) {
    const from = delta['sparkle:deltaFrom']
    if (!from) continue
    const fake: ItemDict = new Map(dict)
    fake.delete('sparkle:deltas')
    fake.set('enclosure', delta)
    deltaUpdates.set(from, toItem(fake, appcastUrl))
  }
  return {
    title: str(dict, 'title'),
    versionString: version,
    displayVersionString: enclosure['sparkle:shortVersionString'] ?? str(dict, 'sparkle:shortVersionString') ?? version,
    date: pubDate === undefined ? undefined : new Date(pubDate),
    fileURL,
    contentLength: length > 0 ? length : 0,
    edSignature: enclosure['sparkle:edSignature'],
    os: enclosure['sparkle:os'],
    channel: str(dict, 'sparkle:channel'),
    minimumSystemVersion: str(dict, 'sparkle:minimumSystemVersion'),
    maximumSystemVersion: str(dict, 'sparkle:maximumSystemVersion'),
    phasedRolloutInterval: interval === undefined ? undefined : Number(interval),
    criticalUpdate,
    releaseNotesLink: str(dict, 'sparkle:releaseNotesLink'),
    itemDescription: str(dict, 'description'),
    isDeltaUpdate: enclosure['sparkle:deltaFrom'] !== undefined,
    deltaFrom: enclosure['sparkle:deltaFrom'],
    deltaUpdates,
  }
}

/** Parses an appcast as Sparkle does; a malformed document or item throws, as Sparkle fails the check. */
export function parseAppcast(xml: string, appcastUrl: URL): AppcastItem[] {
  const doc = xml2js(xml, { compact: false, captureSpacesBetweenElements: false }) as Element
  const rss = childElements(doc).find((e) => e.name === 'rss')
  if (!rss) return []
  const rssNs = withDeclarations(new Map(), rss)
  const channel = childElements(rss).find((e) => e.name === 'channel')
  if (!channel) return []
  const ns = withDeclarations(rssNs, channel)
  return childElements(channel)
    .filter((e) => e.name === 'item')
    .map((item) => toItem(itemDictionary(item, ns), appcastUrl))
}

// ---- SUAppcastDriver: which item the app installs -----------------------------------------

export interface SparkleHost {
  /** CFBundleVersion. */
  version: string
  /** The OS version (`SUOperatingSystem`). */
  osVersion: string
  /** `sparkle:os` values this host accepts: `macos` for Sparkle (an item without one counts as macOS). */
  os?: 'macos' | 'windows'
  /** `allowedChannels(for:)`. */
  allowedChannels?: Set<string>
  /** Background checks have a phased-update group (0…6); user-initiated checks do not. */
  phasedUpdateGroup?: number
  now?: Date
}

export interface SparkleChoice {
  item: AppcastItem | null
  delta: AppcastItem | null
  critical: boolean
}

/** `SPUAppcastItemStateResolver`'s critical flag for this host. */
export function isCritical(item: AppcastItem, hostVersion: string): boolean {
  if (!item.criticalUpdate) return false
  const v = item.criticalUpdate['sparkle:version']
  return v === undefined || compareVersions(hostVersion, v) < 0
}

function readyForPhasedRollout(item: AppcastItem, host: SparkleHost): boolean {
  if (host.phasedUpdateGroup === undefined || isCritical(item, host.version)) return true
  if (item.phasedRolloutInterval === undefined || !item.date) return true
  const elapsed = ((host.now ?? new Date()).getTime() - item.date.getTime()) / 1000
  return elapsed >= item.phasedRolloutInterval * host.phasedUpdateGroup
}

/** The item Sparkle would offer this host, its delta for the host's version, and whether it is critical. */
export function chooseItem(items: AppcastItem[], host: SparkleHost): SparkleChoice {
  const os = host.os ?? 'macos'
  const candidates = items
    .filter((i) => (os === 'macos' ? i.os === undefined || i.os === 'macos' : i.os === undefined || i.os === 'windows'))
    .filter((i) => !i.isDeltaUpdate)
    .filter((i) => i.channel === undefined || (host.allowedChannels?.has(i.channel) ?? false))
    .filter(
      (i) =>
        (i.minimumSystemVersion === undefined || compareVersions(i.minimumSystemVersion, host.osVersion) <= 0) &&
        (i.maximumSystemVersion === undefined || compareVersions(i.maximumSystemVersion, host.osVersion) >= 0),
    )
    .filter((i) => readyForPhasedRollout(i, host))
  let best: AppcastItem | null = null
  for (const c of candidates) if (!best || compareVersions(best.versionString, c.versionString) < 0) best = c
  if (!best || compareVersions(host.version, best.versionString) >= 0)
    return { item: null, delta: null, critical: false }
  return { item: best, delta: best.deltaUpdates.get(host.version) ?? null, critical: isCritical(best, host.version) }
}
