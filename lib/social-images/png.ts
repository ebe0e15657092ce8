/**
 * @module The few PNG facts the social cards need: write the card's title into the file as an
 * `iTXt` "Title" chunk (PNG's own keyword for it, UTF-8), and read a file's size and text back.
 * The build checks each page's image carries the page's title without rendering anything itself.
 */
import { crc32 } from 'node:zlib'

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

export type PngInfo = { width: number; height: number; text: Map<string, string> }

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0)
  return Buffer.concat([head, data, crc])
}

/** `png` with an uncompressed `iTXt` chunk per entry, right after IHDR. */
export function withText(png: Buffer, entries: Record<string, string>): Buffer {
  const ihdrEnd = SIGNATURE.length + 8 + png.readUInt32BE(SIGNATURE.length) + 4
  const chunks = Object.entries(entries).map(([keyword, value]) =>
    // keyword, NUL, compression flag 0, method 0, empty language tag NUL, empty translated keyword NUL, text
    chunk(
      'iTXt',
      Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0, 0, 0, 0, 0]), Buffer.from(value, 'utf8')]),
    ),
  )
  return Buffer.concat([png.subarray(0, ihdrEnd), ...chunks, png.subarray(ihdrEnd)])
}

/** Size and uncompressed text of a PNG; throws naming what is wrong when `file` is not one. */
export function readPng(bytes: Buffer, file: string): PngInfo {
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(SIGNATURE))
    throw new Error(`${file}: not a PNG (no PNG signature)`)
  if (bytes.toString('latin1', 12, 16) !== 'IHDR') throw new Error(`${file}: PNG without IHDR first`)
  const info: PngInfo = { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), text: new Map() }
  for (let at = 8; at + 8 <= bytes.length;) {
    const length = bytes.readUInt32BE(at)
    const type = bytes.toString('latin1', at + 4, at + 8)
    const data = bytes.subarray(at + 8, at + 8 + length)
    if (type === 'iTXt' && data[data.indexOf(0) + 1] === 0) {
      const keywordEnd = data.indexOf(0)
      const languageEnd = data.indexOf(0, keywordEnd + 3)
      const translatedEnd = data.indexOf(0, languageEnd + 1)
      info.text.set(data.toString('latin1', 0, keywordEnd), data.toString('utf8', translatedEnd + 1))
    }
    if (type === 'IEND') break
    at += 12 + length
  }
  return info
}
