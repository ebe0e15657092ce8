/**
 * @module One stream of an OLE compound file (MS-CFB: the container of `.msi` installers), read
 * with ranged reads. A parser over the whole file (the `cfb` package) would hold an upload of up
 * to the upload limit in memory to find a stream of a few KiB; this reads the header, the FAT and
 * directory sectors the walk needs, and the stream's own sectors.
 */
import type { BlobStore } from '../../core/storage.ts'
import { readRange } from './blob-range.ts'

const SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]
const END_OF_CHAIN = 0xfffffffe
const NO_STREAM = 0xffffffff
const HEADER_DIFAT = 109
const ENTRY = 128

/** The most bytes read into memory: the stream itself, and the directory or mini FAT walked to find it. */
export interface Limits {
  stream: number
  table: number
}

/** What the file holds under `name` at its root: the stream's bytes, none, or why it cannot be read. */
export type StreamReading = { bytes: Uint8Array | null } | { problem: string }

class Unreadable extends Error {}

interface Layout {
  sectorSize: number
  miniSectorSize: number
  miniCutoff: number
  firstDirectory: number
  firstMiniFat: number
  difat: number[]
  firstDifatSector: number
  difatSectors: number
}

/** Reads sectors of one file, following FAT and mini FAT chains, each FAT sector read once. */
class CompoundFile {
  private readonly fatSectors = new Map<number, DataView>()
  private difat: number[] | undefined

  constructor(
    private readonly blobs: BlobStore,
    private readonly key: string,
    private readonly size: number,
    private readonly layout: Layout,
  ) {}

  private get maxSectors() {
    return Math.ceil(this.size / this.layout.sectorSize)
  }

  private async range(start: number, length: number): Promise<Uint8Array> {
    if (start + length > this.size) throw new Unreadable(`has a sector at offset ${start} past its end`)
    const bytes = await readRange(this.blobs, this.key, start, length)
    if (!bytes) throw new Unreadable(`could not be read at offset ${start}`)
    return bytes
  }

  private async sector(n: number): Promise<DataView> {
    const bytes = await this.range((n + 1) * this.layout.sectorSize, this.layout.sectorSize)
    return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }

  /** The DIFAT: the header's 109 entries, then the DIFAT sector chain's. */
  private async fatLocations(): Promise<number[]> {
    if (this.difat) return this.difat
    const entries = [...this.layout.difat]
    const perSector = this.layout.sectorSize / 4 - 1
    let next = this.layout.firstDifatSector
    for (let i = 0; i < this.layout.difatSectors && next < END_OF_CHAIN; i++) {
      const view = await this.sector(next)
      for (let j = 0; j < perSector; j++) entries.push(view.getUint32(j * 4, true))
      next = view.getUint32(perSector * 4, true)
    }
    this.difat = entries
    return entries
  }

  private async next(sector: number): Promise<number> {
    const perSector = this.layout.sectorSize / 4
    const index = Math.floor(sector / perSector)
    let view = this.fatSectors.get(index)
    if (!view) {
      const location = (await this.fatLocations())[index]
      if (location === undefined || location >= END_OF_CHAIN - 3)
        throw new Unreadable(`has no FAT sector for sector ${sector}`)
      view = await this.sector(location)
      this.fatSectors.set(index, view)
    }
    return view.getUint32((sector % perSector) * 4, true)
  }

  /** The first `limit` sector numbers of a FAT chain (all by default); a chain that loops or leaves the file is unreadable. */
  async chain(first: number, limit = Infinity): Promise<number[]> {
    const sectors: number[] = []
    for (let at = first; at !== END_OF_CHAIN && sectors.length < limit; at = await this.next(at)) {
      if (at >= this.maxSectors || sectors.length >= this.maxSectors)
        throw new Unreadable('has a sector chain that runs past its end or loops')
      sectors.push(at)
    }
    return sectors
  }

  /** A whole chain, refused when it holds more than `maxBytes` (a directory or mini FAT read into memory). */
  async table(first: number, maxBytes: number, what: string): Promise<Uint8Array> {
    const most = Math.floor(maxBytes / this.layout.sectorSize)
    const sectors = await this.chain(first, most + 1)
    if (sectors.length > most) throw new Unreadable(`has a ${what} larger than ${maxBytes} bytes`)
    return this.read(sectors, sectors.length * this.layout.sectorSize)
  }

  /** The bytes of the given sectors, consecutive ones read in one range. */
  async read(sectors: number[], length: number): Promise<Uint8Array> {
    const out = new Uint8Array(sectors.length * this.layout.sectorSize)
    for (let i = 0; i < sectors.length;) {
      let run = 1
      while (i + run < sectors.length && sectors[i + run] === (sectors[i] ?? 0) + run) run++
      out.set(
        await this.range(((sectors[i] ?? 0) + 1) * this.layout.sectorSize, run * this.layout.sectorSize),
        i * this.layout.sectorSize,
      )
      i += run
    }
    if (length > out.length) throw new Unreadable('has a stream longer than its sector chain')
    return out.subarray(0, length)
  }

  /** A stream below the mini-stream cutoff: its 64-byte mini sectors inside the root entry's stream. */
  async readMini(
    first: number,
    length: number,
    root: { start: number; size: number },
    maxBytes: number,
  ): Promise<Uint8Array> {
    const { miniSectorSize, sectorSize } = this.layout
    const miniFatBytes = await this.table(this.layout.firstMiniFat, maxBytes, 'mini FAT')
    const miniFat = new DataView(miniFatBytes.buffer, miniFatBytes.byteOffset, miniFatBytes.byteLength)
    const needed = Math.ceil(length / miniSectorSize)
    const minis: number[] = []
    for (let at = first; minis.length < needed; at = miniFat.getUint32(at * 4, true)) {
      if (at === END_OF_CHAIN) throw new Unreadable('has a stream longer than its mini sector chain')
      if ((at + 1) * 4 > miniFat.byteLength || (at + 1) * miniSectorSize > root.size)
        throw new Unreadable('has a mini sector chain that runs past its mini FAT or mini stream')
      minis.push(at)
    }
    // The mini stream's sectors up to the last one needed; each mini sector's file offset, and
    // neighbours in the file read as one range.
    const perSector = sectorSize / miniSectorSize
    const stream = await this.chain(root.start, Math.floor(Math.max(...minis) / perSector) + 1)
    const offsets = minis.map((at) => {
      const sector = stream[Math.floor(at / perSector)]
      if (sector === undefined) throw new Unreadable('has a mini sector past the end of its mini stream')
      return (sector + 1) * sectorSize + (at % perSector) * miniSectorSize
    })
    const out = new Uint8Array(needed * miniSectorSize)
    for (let i = 0; i < offsets.length;) {
      let run = 1
      while (i + run < offsets.length && offsets[i + run] === (offsets[i] ?? 0) + run * miniSectorSize) run++
      out.set(await this.range(offsets[i] ?? 0, run * miniSectorSize), i * miniSectorSize)
      i += run
    }
    return out.subarray(0, length)
  }

  get cutoff() {
    return this.layout.miniCutoff
  }
  get firstDirectory() {
    return this.layout.firstDirectory
  }
}

interface Entry {
  name: string
  type: number
  left: number
  right: number
  child: number
  start: number
  size: number
}

function entryAt(directory: Uint8Array, id: number, sectorSize: number): Entry | undefined {
  if ((id + 1) * ENTRY > directory.length) return undefined
  const view = new DataView(directory.buffer, directory.byteOffset + id * ENTRY, ENTRY)
  const nameBytes = Math.min(view.getUint16(0x40, true), 64)
  let name = ''
  for (let i = 0; i < nameBytes - 2; i += 2) name += String.fromCharCode(view.getUint16(i, true))
  return {
    name,
    type: view.getUint8(0x42),
    left: view.getUint32(0x44, true),
    right: view.getUint32(0x48, true),
    child: view.getUint32(0x4c, true),
    start: view.getUint32(0x74, true),
    // Version 3 files (512-byte sectors) may leave garbage in the size's high 32 bits.
    size: view.getUint32(0x78, true) + (sectorSize === 512 ? 0 : view.getUint32(0x7c, true) * 2 ** 32),
  }
}

async function layoutOf(blobs: BlobStore, key: string, size: number): Promise<Layout | null> {
  if (size < 512) return null
  const header = await readRange(blobs, key, 0, 512)
  if (!header || !SIGNATURE.every((b, i) => header[i] === b)) return null
  const view = new DataView(header.buffer, header.byteOffset, 512)
  const shift = view.getUint16(0x1e, true)
  const miniShift = view.getUint16(0x20, true)
  if ((shift !== 9 && shift !== 12) || miniShift !== 6)
    throw new Unreadable(`has sector shifts ${shift}/${miniShift}; a compound file has 9 or 12, and 6`)
  return {
    sectorSize: 2 ** shift,
    miniSectorSize: 2 ** miniShift,
    miniCutoff: view.getUint32(0x38, true),
    firstDirectory: view.getUint32(0x30, true),
    firstMiniFat: view.getUint32(0x3c, true),
    firstDifatSector: view.getUint32(0x44, true),
    difatSectors: view.getUint32(0x48, true),
    difat: Array.from({ length: HEADER_DIFAT }, (_, i) => view.getUint32(0x4c + i * 4, true)),
  }
}

/**
 * The stream named `name` directly under the root storage of the compound file stored at `key`;
 * `{ bytes: null }` when the file is not a compound file or has no such stream. A stream or a
 * table (directory, mini FAT) larger than its limit is a problem, not read: memory stays bounded
 * whatever the file says.
 */
export async function rootStream(
  blobs: BlobStore,
  key: string,
  size: number,
  name: string,
  limits: Limits,
): Promise<StreamReading> {
  try {
    const layout = await layoutOf(blobs, key, size)
    if (!layout) return { bytes: null }
    const file = new CompoundFile(blobs, key, size, layout)
    const directory = await file.table(file.firstDirectory, limits.table, 'directory')
    const root = entryAt(directory, 0, layout.sectorSize)
    if (!root || root.type !== 5) return { problem: 'has a compound-file directory without a root entry' }
    // The root's children form a tree through left and right siblings; visit each entry once.
    const seen = new Set<number>()
    const queue = [root.child]
    while (queue.length) {
      const id = queue.pop() ?? NO_STREAM
      if (id === NO_STREAM || seen.has(id)) continue
      seen.add(id)
      const entry = entryAt(directory, id, layout.sectorSize)
      if (!entry) return { problem: `has a compound-file directory entry ${id} past the directory's end` }
      if (entry.name === name && entry.type === 2) {
        if (entry.size > limits.stream)
          return {
            problem: `has a ${JSON.stringify(name)} stream of ${entry.size} bytes; at most ${limits.stream} are read`,
          }
        const bytes =
          entry.size < file.cutoff
            ? await file.readMini(entry.start, entry.size, root, limits.table)
            : await file.read(await file.chain(entry.start, Math.ceil(entry.size / layout.sectorSize)), entry.size)
        return { bytes }
      }
      queue.push(entry.left, entry.right)
    }
    return { bytes: null }
  } catch (error) {
    if (error instanceof Unreadable) return { problem: `is a compound file that ${error.message}` }
    throw error
  }
}
