/**
 * @module The identity (Name, Publisher, Version, ProcessorArchitecture) an `.msix` or
 * `.msixbundle` declares: an MSIX is a zip, and its `AppxManifest.xml` (a bundle's
 * `AppxMetadata/AppxBundleManifest.xml`) holds an `<Identity>` element. Only the zip's central
 * directory and that one entry are read, by ranges, so a large package costs a few small reads.
 * The zip listing and entry reads serve app-bundle-zip.ts too.
 */
import type { BlobStore } from '../../core/storage.ts'
import type { MsixIdentity } from '../../protocols/msix.ts'

/** Reads bytes `start`..`end` (inclusive) of the package. */
export type RangeReader = (start: number, end: number) => Promise<Uint8Array>

const MAX_MANIFEST_BYTES = 1024 * 1024
const EOCD_SIGNATURE = 0x06054b50
const CENTRAL_SIGNATURE = 0x02014b50
const LOCAL_SIGNATURE = 0x04034b50
/** The end-of-central-directory record (22 bytes) plus the longest zip comment. */
const TAIL_BYTES = 22 + 0xffff

/** Why a package's identity cannot be read. */
export class MsixManifestError extends Error {}

const u16 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8)
const u32 = (b: Uint8Array, at: number) => (u16(b, at) | (u16(b, at + 2) << 16)) >>> 0
/** A little-endian 64-bit field; packages past 2^53 bytes do not exist. */
const u64 = (b: Uint8Array, at: number) => u32(b, at) + u32(b, at + 4) * 2 ** 32
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50
const ZIP64_EOCD_SIGNATURE = 0x06064b50
const MAX32 = 0xffffffff

/** Where the central directory is: the end record's fields, or (MSIX packages are ZIP64) the ZIP64 end record's. */
async function centralDirectory(
  read: RangeReader,
  size: number,
  tail: Uint8Array,
  tailStart: number,
  eocd: number,
): Promise<{ offset: number; size: number }> {
  const offset = u32(tail, eocd + 16)
  const length = u32(tail, eocd + 12)
  if (offset !== MAX32 && length !== MAX32) return { offset, size: length }
  const locator = eocd - 20
  if (locator < 0 || u32(tail, locator) !== ZIP64_LOCATOR_SIGNATURE)
    throw new MsixManifestError('its ZIP64 end record locator is missing')
  const record = u64(tail, locator + 8)
  if (record + 56 > size) throw new MsixManifestError('its ZIP64 end record lies outside the file')
  const end =
    record >= tailStart ? tail.subarray(record - tailStart, record - tailStart + 56) : await read(record, record + 55)
  if (u32(end, 0) !== ZIP64_EOCD_SIGNATURE) throw new MsixManifestError('its ZIP64 end record is missing')
  return { offset: u64(end, 48), size: u64(end, 40) }
}

/** The ZIP64 extra field's values for the central entry fields that hold 0xFFFFFFFF, in the order the format lists them. */
function zip64Values(extra: Uint8Array, wanted: Array<'uncompressed' | 'compressed' | 'offset'>): Map<string, number> {
  const values = new Map<string, number>()
  for (let at = 0; at + 4 <= extra.length;) {
    const id = u16(extra, at)
    const length = u16(extra, at + 2)
    if (id === 0x0001) {
      let field = at + 4
      for (const name of wanted) {
        if (field + 8 > at + 4 + length) break
        values.set(name, u64(extra, field))
        field += 8
      }
      return values
    }
    at += 4 + length
  }
  return values
}

async function inflateRaw(data: Uint8Array, max: number): Promise<Uint8Array> {
  const reader = new Blob([new Uint8Array(data)])
    .stream()
    .pipeThrough(new DecompressionStream('deflate-raw'))
    .getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.length
    if (total > max) {
      await reader.cancel()
      throw new MsixManifestError(`its manifest inflates to more than ${max} bytes`)
    }
    chunks.push(value)
  }
  const out = new Uint8Array(total)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}

/** One file of a zip, from its central directory entry. */
export interface ZipEntry {
  name: string
  method: number
  compressed: number
  uncompressed: number
  /** Where its local header starts. */
  local: number
}

/** The entries of a zip's central directory, in order; throws `MsixManifestError` when it is not a zip. */
export async function listZipEntries(read: RangeReader, size: number): Promise<ZipEntry[]> {
  if (size < 22) throw new MsixManifestError('it is not a zip archive (too short)')
  const tailStart = Math.max(0, size - TAIL_BYTES)
  const tail = await read(tailStart, size - 1)
  let eocd = -1
  for (let i = tail.length - 22; i >= 0; i--)
    if (u32(tail, i) === EOCD_SIGNATURE) {
      eocd = i
      break
    }
  if (eocd < 0) throw new MsixManifestError('it is not a zip archive (no end of central directory)')
  const { offset: cdOffset, size: cdSize } = await centralDirectory(read, size, tail, tailStart, eocd)
  if (cdOffset + cdSize > size || cdSize > 16 * 1024 * 1024)
    throw new MsixManifestError('its zip central directory lies outside the file')
  const cd = cdSize ? await read(cdOffset, cdOffset + cdSize - 1) : new Uint8Array()
  const decoder = new TextDecoder()
  const entries: ZipEntry[] = []
  for (let at = 0; at + 46 <= cd.length && u32(cd, at) === CENTRAL_SIGNATURE;) {
    const nameLength = u16(cd, at + 28)
    const extraLength = u16(cd, at + 30)
    const next = at + 46 + nameLength + extraLength + u16(cd, at + 32)
    const wanted = (
      [
        ['uncompressed', u32(cd, at + 24)],
        ['compressed', u32(cd, at + 20)],
        ['offset', u32(cd, at + 42)],
      ] as const
    )
      .filter(([, v]) => v === MAX32)
      .map(([k]) => k)
    const large = zip64Values(cd.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength), wanted)
    entries.push({
      name: decoder.decode(cd.subarray(at + 46, at + 46 + nameLength)),
      method: u16(cd, at + 10),
      compressed: large.get('compressed') ?? u32(cd, at + 20),
      uncompressed: large.get('uncompressed') ?? u32(cd, at + 24),
      local: large.get('offset') ?? u32(cd, at + 42),
    })
    at = next
  }
  return entries
}

/** Where an entry's data starts, from its local header. */
async function entryDataStart(read: RangeReader, size: number, entry: ZipEntry): Promise<number> {
  const header = await read(entry.local, Math.min(size - 1, entry.local + 29))
  if (header.length < 30 || u32(header, 0) !== LOCAL_SIGNATURE)
    throw new MsixManifestError(`its zip entry ${entry.name} has no local header`)
  const dataStart = entry.local + 30 + u16(header, 26) + u16(header, 28)
  if (dataStart + entry.compressed > size)
    throw new MsixManifestError(`its zip entry ${entry.name} lies outside the file`)
  return dataStart
}

/** The compressed bytes of an entry, read in chunks as a stream. */
function compressedStream(read: RangeReader, dataStart: number, compressed: number): ReadableStream<BufferSource> {
  const CHUNK = 1024 * 1024
  let at = 0
  return new ReadableStream<BufferSource>({
    async pull(controller) {
      if (at >= compressed) return controller.close()
      const n = Math.min(CHUNK, compressed - at)
      controller.enqueue(new Uint8Array(await read(dataStart + at, dataStart + at + n - 1)))
      at += n
    },
  })
}

/**
 * Range reads of an entry's uncompressed bytes: a stored entry reads the zip directly; a deflated one
 * is inflated once, front to back, as long as the reads move forward (a header, then the tables and
 * blobs it points at further on), keeping only the last inflated chunk and the requested bytes, so
 * memory stays at the size of one read however large the entry. A read that goes back before that
 * chunk inflates again from the start.
 */
export async function zipEntryReader(read: RangeReader, size: number, entry: ZipEntry): Promise<RangeReader> {
  const dataStart = await entryDataStart(read, size, entry)
  if (entry.method === 0) {
    return (start, end) => {
      if (end >= entry.compressed) throw new MsixManifestError(`its zip entry ${entry.name} is shorter than it says`)
      return read(dataStart + start, dataStart + end)
    }
  }
  if (entry.method !== 8)
    throw new MsixManifestError(`its ${entry.name} is compressed with zip method ${entry.method}, not deflate`)
  let inflated: ReadableStreamDefaultReader<Uint8Array> | undefined
  /** Bytes inflated so far; `last` holds the ones just before `position`. */
  let position = 0
  let last: Uint8Array = new Uint8Array(0)
  const restart = async () => {
    await inflated?.cancel().catch(() => undefined)
    inflated = compressedStream(read, dataStart, entry.compressed)
      .pipeThrough(new DecompressionStream('deflate-raw'))
      .getReader()
    position = 0
    last = new Uint8Array(0)
    return inflated
  }
  const copy = (out: Uint8Array, start: number, chunk: Uint8Array, chunkStart: number) => {
    const from = Math.max(start, chunkStart)
    const to = Math.min(start + out.length, chunkStart + chunk.length)
    if (from < to) out.set(chunk.subarray(from - chunkStart, to - chunkStart), from - start)
  }
  const serve = async (start: number, end: number): Promise<Uint8Array> => {
    const reader = inflated && start >= position - last.length ? inflated : await restart()
    const out = new Uint8Array(end - start + 1)
    copy(out, start, last, position - last.length)
    try {
      while (position <= end) {
        const { done, value } = await reader.read()
        if (done) break
        copy(out, start, value, position)
        position += value.length
        last = value
      }
    } catch (error) {
      inflated = undefined
      if (error instanceof MsixManifestError) throw error
      throw new MsixManifestError(`its zip entry ${entry.name} does not inflate (damaged deflate data)`)
    }
    if (position <= end) throw new MsixManifestError(`its zip entry ${entry.name} is shorter than it says`)
    return out
  }
  // One inflation serves the reads in turn.
  let queue: Promise<unknown> = Promise.resolve()
  return (start, end) => {
    const next = queue.then(() => serve(start, end))
    queue = next.catch(() => undefined)
    return next
  }
}

/** The bytes of the first entry named one of `names`, or `undefined` when the zip has none. */
export async function readZipEntry(
  read: RangeReader,
  size: number,
  names: string[],
): Promise<{ name: string; data: Uint8Array } | undefined> {
  const entry = (await listZipEntries(read, size)).find((e) => names.includes(e.name))
  if (!entry) return undefined
  const name = entry.name
  if (entry.compressed > MAX_MANIFEST_BYTES)
    throw new MsixManifestError(`its ${name} is larger than ${MAX_MANIFEST_BYTES} bytes`)
  const dataStart = await entryDataStart(read, size, entry)
  const raw = entry.compressed ? await read(dataStart, dataStart + entry.compressed - 1) : new Uint8Array()
  if (entry.method === 0) return { name, data: raw }
  if (entry.method === 8) return { name, data: await inflateRaw(raw, MAX_MANIFEST_BYTES) }
  throw new MsixManifestError(`its ${name} is compressed with zip method ${entry.method}, not deflate`)
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
const decodeXml = (v: string) =>
  v.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) =>
    e.startsWith('#x') || e.startsWith('#X')
      ? String.fromCodePoint(parseInt(e.slice(2), 16))
      : e.startsWith('#')
        ? String.fromCodePoint(parseInt(e.slice(1), 10))
        : (ENTITIES[e.toLowerCase()] ?? ''),
  )

/** Attributes of the first `<Identity>` element (any namespace prefix) in a manifest. */
function identityAttributes(xml: string): Map<string, string> | undefined {
  const element = /<(?:[A-Za-z_][\w.-]*:)?Identity\b([^>]*)>/.exec(xml)
  if (!element) return undefined
  const attributes = new Map<string, string>()
  for (const m of element[1]!.matchAll(/([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
    attributes.set(m[1]!, decodeXml(m[2] ?? m[3] ?? ''))
  return attributes
}

/** A Windows package version: four parts, each 0–65535. */
export const WINDOWS_VERSION = /^(0|[1-9]\d{0,4})\.(0|[1-9]\d{0,4})\.(0|[1-9]\d{0,4})\.(0|[1-9]\d{0,4})$/
export const isWindowsVersion = (v: string) => WINDOWS_VERSION.test(v) && v.split('.').every((p) => Number(p) <= 65535)

const PACKAGE_MANIFEST = 'AppxManifest.xml'
const BUNDLE_MANIFEST = 'AppxMetadata/AppxBundleManifest.xml'

/** The identity of an MSIX package or bundle; throws `MsixManifestError` saying what is wrong. */
export async function msixIdentity(read: RangeReader, size: number): Promise<MsixIdentity> {
  const entry = await readZipEntry(read, size, [BUNDLE_MANIFEST, PACKAGE_MANIFEST])
  if (!entry) throw new MsixManifestError(`it holds neither ${PACKAGE_MANIFEST} nor ${BUNDLE_MANIFEST}`)
  const attributes = identityAttributes(new TextDecoder().decode(entry.data))
  if (!attributes) throw new MsixManifestError(`its ${entry.name} has no <Identity> element`)
  const name = attributes.get('Name')
  const publisher = attributes.get('Publisher')
  const version = attributes.get('Version')
  if (!name || !publisher || !version)
    throw new MsixManifestError(`the <Identity> in its ${entry.name} lacks Name, Publisher or Version`)
  if (!isWindowsVersion(version)) {
    throw new MsixManifestError(
      `the Identity Version ${JSON.stringify(version)} in its ${entry.name} is not four numbers of 0–65535 (1.4.0.0)`,
    )
  }
  const kind = entry.name === BUNDLE_MANIFEST ? 'bundle' : 'package'
  return {
    kind,
    name,
    publisher,
    version,
    processorArchitecture: kind === 'package' ? attributes.get('ProcessorArchitecture') : undefined,
  }
}

/** Range reads of a stored blob. */
export function blobRangeReader(blobs: BlobStore, key: string): RangeReader {
  return async (start, end) => {
    const got = await blobs.get(key, { start, end })
    if (!got) throw new MsixManifestError('the stored file is gone')
    return new Uint8Array(await new Response(got.body).arrayBuffer())
  }
}

/**
 * Why each `.msix` / `.msixbundle` among uploaded files cannot be named in an App Installer file
 * (its identity is unreadable), as `<file name>: <reason>`; empty when all can.
 */
export async function msixUploadProblems(
  blobs: BlobStore,
  files: Array<{ name: string; blobKey: string; size: number }>,
): Promise<string[]> {
  const problems: string[] = []
  for (const file of files) {
    const lower = file.name.toLowerCase()
    if (!lower.endsWith('.msix') && !lower.endsWith('.msixbundle')) continue
    try {
      await msixIdentity(blobRangeReader(blobs, file.blobKey), file.size)
    } catch (error) {
      if (!(error instanceof MsixManifestError)) throw error
      problems.push(`${JSON.stringify(file.name)} cannot be named in an App Installer file: ${error.message}`)
    }
  }
  return problems
}
