/**
 * @module What a repository index needs of an uploaded `.deb` or `.rpm`, read from the package's
 * own headers: the `.deb`'s ar archive and the `control` file in its control.tar.{gz,xz,zst}, the
 * `.rpm`'s lead, signature header and header. Pure: bytes come through `ReadRange`, and the
 * decompressors the runtime has through `Decompress`.
 */
import type { RpmDependency, RpmMetadata } from '../protocols/rpm-repository.ts'

/** Reads `length` bytes at `offset` of the package (fewer at its end). */
export type ReadRange = (offset: number, length: number) => Promise<Uint8Array>
/** Inflates one compressed member; throws on a format the runtime cannot read. */
export type Decompress = (format: 'gzip' | 'xz' | 'zstd', data: Uint8Array, maxBytes: number) => Promise<Uint8Array>

/** An xz compressor (the `.xz` file format), injected by runtimes that have one. */
export type CompressXz = (data: Uint8Array) => Promise<Uint8Array>

/** A `.deb`'s control stanza: its fields in order (`Filename`, `Size` and the hashes left out). */
export interface DebControl {
  name: string
  version: string
  arch: string
  fields: Array<[string, string]>
}

/** A package Ferry cannot index: the message names what is wrong (the caller names the file). */
export class PackageProblem extends Error {}

const MAX_CONTROL_BYTES = 4 * 1024 * 1024
const MAX_RPM_HEADER_BYTES = 64 * 1024 * 1024
const latin = new TextDecoder('latin1')
const utf8 = new TextDecoder('utf-8')
const ascii = (b: Uint8Array, start: number, end: number) => latin.decode(b.subarray(start, end))

// ---- .deb ----

/** The `control` stanza of a `.deb`: ar member `control.tar.*`, tar entry `./control`. */
export async function readDebControl(read: ReadRange, decompress: Decompress): Promise<DebControl> {
  const head = await read(0, 8)
  if (ascii(head, 0, 8) !== '!<arch>\n') throw new PackageProblem('is not a Debian package: no ar archive signature')
  let offset = 8
  for (let member = 0; member < 3; member++) {
    const header = await read(offset, 60)
    if (header.length < 60) break
    const name = ascii(header, 0, 16).trim().replace(/\/$/, '')
    const size = Number(ascii(header, 48, 58).trim())
    if (!Number.isSafeInteger(size) || size < 0)
      throw new PackageProblem(`has an ar member ${JSON.stringify(name)} with an unreadable size`)
    const format =
      name === 'control.tar.gz'
        ? 'gzip'
        : name === 'control.tar.xz'
          ? 'xz'
          : name === 'control.tar.zst'
            ? 'zstd'
            : name === 'control.tar'
              ? null
              : undefined
    if (format !== undefined) {
      if (size > MAX_CONTROL_BYTES)
        throw new PackageProblem(`has a ${name} of ${size} bytes; at most ${MAX_CONTROL_BYTES} are read`)
      const packed = await read(offset + 60, size)
      if (packed.length < size) throw new PackageProblem(`ends inside its ${name}`)
      let tar: Uint8Array
      try {
        tar = format === null ? packed : await decompress(format, packed, MAX_CONTROL_BYTES)
      } catch (error) {
        throw new PackageProblem(
          `has a ${name} that does not decompress (${error instanceof Error ? error.message : String(error)})`,
        )
      }
      const control = tarEntry(tar, 'control')
      if (!control) throw new PackageProblem(`has no control file in its ${name}`)
      return parseControl(utf8.decode(control))
    }
    offset += 60 + size + (size % 2)
  }
  throw new PackageProblem('has no control.tar.gz, control.tar.xz or control.tar.zst member')
}

/** The bytes of the tar entry `name` (or `./name`), `undefined` when absent. */
function tarEntry(tar: Uint8Array, wanted: string): Uint8Array | undefined {
  let offset = 0
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512)
    if (header.every((b) => b === 0)) return undefined
    const field = (start: number, length: number) => ascii(header, start, start + length).replace(/\0.*$/s, '')
    const prefix = ascii(header, 257, 263).startsWith('ustar') ? field(345, 155) : ''
    const name = (prefix ? `${prefix}/` : '') + field(0, 100)
    const size = parseInt(field(124, 12).trim() || '0', 8)
    if (!Number.isSafeInteger(size) || size < 0) return undefined
    const body = offset + 512
    if (name.replace(/^\.\//, '') === wanted && (header[156] === 0x30 || header[156] === 0))
      return tar.subarray(body, body + size)
    offset = body + Math.ceil(size / 512) * 512
  }
  return undefined
}

/** Fields the index writes itself; a package's own copies are dropped. */
const INDEX_FIELDS = new Set(['filename', 'size', 'md5sum', 'sha1', 'sha256', 'sha512', 'description-md5'])

/** Parses one deb822 stanza (the `control` file) and checks the fields an index needs. */
export function parseControl(text: string): DebControl {
  const fields: Array<[string, string]> = []
  const lines = text.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n')
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '')
      throw new PackageProblem(`has a blank line in its control file (line ${i + 1}); a control file is one stanza`)
    const last = fields.at(-1)
    if (/^[ \t]/.test(line)) {
      if (!last)
        throw new PackageProblem(`has a continuation line before any field in its control file (line ${i + 1})`)
      last[1] += `\n${line}`
      continue
    }
    const match = /^([!-9;-~][!-9;-~]*):[ \t]*(.*)$/.exec(line)
    if (!match)
      throw new PackageProblem(`has an unreadable control file line ${i + 1}: ${JSON.stringify(line.slice(0, 80))}`)
    fields.push([match[1] ?? '', (match[2] ?? '').trimEnd()])
  }
  const get = (name: string) => fields.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1]
  const name = get('Package') ?? ''
  const version = get('Version') ?? ''
  const arch = get('Architecture') ?? ''
  if (!/^[a-z0-9][a-z0-9+.-]+$/.test(name))
    throw new PackageProblem(
      `has Package ${JSON.stringify(name)} in its control file; Debian names are lower-case letters, digits, + - .`,
    )
  if (!/^[A-Za-z0-9.+~:-]+$/.test(version) || !/^[0-9]/.test(version.replace(/^\d+:/, '')))
    throw new PackageProblem(
      `has Version ${JSON.stringify(version)} in its control file, which is not a Debian version`,
    )
  if (!/^[a-z0-9][a-z0-9-]*$/.test(arch))
    throw new PackageProblem(
      `has Architecture ${JSON.stringify(arch)} in its control file, which is not a Debian architecture`,
    )
  return { name, version, arch, fields: fields.filter(([k]) => !INDEX_FIELDS.has(k.toLowerCase())) }
}

// ---- .rpm ----

const RPM_LEAD = 96
const HEADER_MAGIC = [0x8e, 0xad, 0xe8, 0x01]
const TAG = {
  name: 1000,
  version: 1001,
  release: 1002,
  epoch: 1003,
  summary: 1004,
  description: 1005,
  buildTime: 1006,
  buildHost: 1007,
  size: 1009,
  vendor: 1011,
  license: 1014,
  packager: 1015,
  group: 1016,
  url: 1020,
  arch: 1022,
  fileModes: 1030,
  sourceRpm: 1044,
  archiveSize: 1046,
  provideName: 1047,
  requireFlags: 1048,
  requireName: 1049,
  requireVersion: 1050,
  conflictFlags: 1053,
  conflictName: 1054,
  conflictVersion: 1055,
  changelogTime: 1080,
  changelogName: 1081,
  changelogText: 1082,
  obsoleteName: 1090,
  provideFlags: 1112,
  provideVersion: 1113,
  obsoleteFlags: 1114,
  obsoleteVersion: 1115,
  dirIndexes: 1116,
  baseNames: 1117,
  dirNames: 1118,
  longSize: 5009,
  longArchiveSize: 271,
} as const
const SIG_PAYLOAD_SIZE = 1007

type Value = string | string[] | number[]
interface Header {
  values: Map<number, Value>
  length: number
}

/** Parses one header structure (magic, index, store) from `b`. */
function parseHeader(b: Uint8Array): Header {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength)
  if (b.length < 16 || !HEADER_MAGIC.every((x, i) => b[i] === x))
    throw new PackageProblem('has no RPM header magic where a header should start')
  const count = view.getUint32(8)
  const storeSize = view.getUint32(12)
  const length = 16 + count * 16 + storeSize
  if (count > 100_000 || length > b.length) throw new PackageProblem('has an RPM header larger than the file')
  const store = 16 + count * 16
  const values = new Map<number, Value>()
  for (let i = 0; i < count; i++) {
    const at = 16 + i * 16
    const tag = view.getUint32(at)
    const type = view.getUint32(at + 4)
    const offset = store + view.getUint32(at + 8)
    const n = view.getUint32(at + 12)
    if (offset > length) throw new PackageProblem(`has an RPM header entry (tag ${tag}) pointing outside the header`)
    const strings = (): string[] => {
      const out: string[] = []
      let p = offset
      for (let k = 0; k < n && p < length; k++) {
        const end = b.indexOf(0, p)
        if (end < 0 || end >= length) throw new PackageProblem(`has an unterminated string in RPM header tag ${tag}`)
        out.push(utf8.decode(b.subarray(p, end)))
        p = end + 1
      }
      return out
    }
    const ints = (size: 1 | 2 | 4 | 8): number[] => {
      if (offset + n * size > length) throw new PackageProblem(`has RPM header tag ${tag} running past the header`)
      return Array.from({ length: n }, (_, k) =>
        size === 1
          ? view.getUint8(offset + k)
          : size === 2
            ? view.getUint16(offset + k * 2)
            : size === 4
              ? view.getUint32(offset + k * 4)
              : Number(view.getBigUint64(offset + k * 8)),
      )
    }
    if (type === 6) values.set(tag, strings()[0] ?? '')
    else if (type === 8 || type === 9) values.set(tag, strings())
    else if (type === 2 || type === 1) values.set(tag, ints(1))
    else if (type === 3) values.set(tag, ints(2))
    else if (type === 4) values.set(tag, ints(4))
    else if (type === 5) values.set(tag, ints(8))
  }
  return { values, length }
}

/** An RPM's metadata from its lead, signature header and header (the payload is not read). */
export async function readRpmMetadata(read: ReadRange, fileSize: number): Promise<RpmMetadata> {
  const lead = await read(0, RPM_LEAD + 16)
  if (lead.length < RPM_LEAD + 16 || !(lead[0] === 0xed && lead[1] === 0xab && lead[2] === 0xee && lead[3] === 0xdb)) {
    throw new PackageProblem('is not an RPM package: no RPM lead')
  }
  const sigSize = (intro: Uint8Array) => {
    const v = new DataView(intro.buffer, intro.byteOffset, intro.byteLength)
    const size = 16 + v.getUint32(8) * 16 + v.getUint32(12)
    if (size > MAX_RPM_HEADER_BYTES)
      throw new PackageProblem(`has an RPM header of ${size} bytes; at most ${MAX_RPM_HEADER_BYTES} are read`)
    return size
  }
  const signature = parseHeader(await read(RPM_LEAD, sigSize(lead.subarray(RPM_LEAD))))
  const headerStart = RPM_LEAD + signature.length + ((8 - (signature.length % 8)) % 8)
  const main = parseHeader(await read(headerStart, sigSize(await read(headerStart, 16))))
  const v = main.values
  const str = (tag: number) => {
    const x = v.get(tag)
    return typeof x === 'string' ? x : Array.isArray(x) && typeof x[0] === 'string' ? x[0] : ''
  }
  const strs = (tag: number): string[] => {
    const x = v.get(tag)
    return Array.isArray(x) ? x.map(String) : typeof x === 'string' ? [x] : []
  }
  const nums = (tag: number): number[] => {
    const x = v.get(tag)
    return Array.isArray(x) ? x.map(Number) : []
  }
  const num = (...tags: number[]) => {
    for (const t of tags) {
      const n = nums(t)[0]
      if (n !== undefined) return n
    }
    return 0
  }
  const name = str(TAG.name)
  const version = str(TAG.version)
  const release = str(TAG.release)
  const arch = str(TAG.arch)
  if (!/^[A-Za-z0-9._+-]+$/.test(name))
    throw new PackageProblem(`has RPM name ${JSON.stringify(name)}; expected letters, digits and . _ + -`)
  if (!/^[A-Za-z0-9._+~^]+$/.test(version) || !/^[A-Za-z0-9._+~^]+$/.test(release))
    throw new PackageProblem(`has RPM version ${JSON.stringify(`${version}-${release}`)}, which rpm cannot compare`)
  if (!/^[A-Za-z0-9_]+$/.test(arch)) throw new PackageProblem(`has RPM architecture ${JSON.stringify(arch)}`)
  const deps = (names: number, flags: number, versions: number): RpmDependency[] => {
    const f = nums(flags)
    const vs = strs(versions)
    return strs(names).flatMap((n, i) => {
      if (n.startsWith('rpmlib(')) return []
      const [evr = '', sense = 0] = [vs[i] ?? '', f[i] ?? 0]
      const op = ({ 2: 'LT', 4: 'GT', 8: 'EQ', 10: 'LE', 12: 'GE' } as Record<number, string>)[sense & 14] ?? null
      const m = /^(?:(\d+):)?([^-]*)(?:-(.*))?$/.exec(evr)
      return [
        {
          name: n,
          flags: evr && op ? op : null,
          epoch: evr && op ? (m?.[1] ?? '0') : null,
          ver: evr && op ? (m?.[2] ?? null) : null,
          rel: evr && op ? (m?.[3] ?? null) : null,
        },
      ]
    })
  }
  const dirs = strs(TAG.dirNames)
  const modes = nums(TAG.fileModes)
  const dirIndexes = nums(TAG.dirIndexes)
  const files = strs(TAG.baseNames).map((base, i) => ({
    path: `${dirs[dirIndexes[i] ?? 0] ?? ''}${base}`,
    dir: ((modes[i] ?? 0) & 0o170000) === 0o040000,
  }))
  const times = nums(TAG.changelogTime)
  const authors = strs(TAG.changelogName)
  const texts = strs(TAG.changelogText)
  return {
    name,
    epoch: num(TAG.epoch),
    version,
    release,
    arch,
    summary: str(TAG.summary),
    description: str(TAG.description),
    url: str(TAG.url),
    license: str(TAG.license),
    vendor: str(TAG.vendor),
    group: str(TAG.group),
    buildHost: str(TAG.buildHost),
    sourceRpm: str(TAG.sourceRpm),
    packager: str(TAG.packager),
    buildTime: num(TAG.buildTime),
    installedSize: num(TAG.longSize, TAG.size),
    archiveSize:
      num(TAG.longArchiveSize, TAG.archiveSize) ||
      (signature.values.get(SIG_PAYLOAD_SIZE) as number[] | undefined)?.[0] ||
      0,
    headerStart,
    headerEnd: Math.min(fileSize, headerStart + main.length),
    provides: deps(TAG.provideName, TAG.provideFlags, TAG.provideVersion),
    requires: deps(TAG.requireName, TAG.requireFlags, TAG.requireVersion),
    conflicts: deps(TAG.conflictName, TAG.conflictFlags, TAG.conflictVersion),
    obsoletes: deps(TAG.obsoleteName, TAG.obsoleteFlags, TAG.obsoleteVersion),
    files,
    changelog: times.slice(0, 10).map((date, i) => ({ date, author: authors[i] ?? '', text: texts[i] ?? '' })),
  }
}
