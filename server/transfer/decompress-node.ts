/**
 * @module The Node runtime's decompressors for `.deb` control members (zlib's gzip and zstd, and xz
 * from @napi-rs/lzma), and its xz compressor for apt's `Packages.xz`.
 */
// A namespace import: a named import of zstdDecompressSync (Node ≥ 22.15) would stop an older Node
// before runtime/require-node.ts can say which Node Ferry needs.
import * as zlib from 'node:zlib'
import { xz } from '@napi-rs/lzma'
import type { CompressXz, Decompress } from './linux-packages.ts'

export const nodeDecompress: Decompress = async (format, data, maxBytes) => {
  if (format === 'gzip') return zlib.gunzipSync(data, { maxOutputLength: maxBytes })
  if (format === 'zstd') return zlib.zstdDecompressSync(data, { maxOutputLength: maxBytes })
  const out = await xz.decompress(data)
  if (out.length > maxBytes) throw new Error(`it inflates to more than ${maxBytes} bytes`)
  return out
}

export const nodeCompressXz: CompressXz = async (data) => new Uint8Array(await xz.compress(data))
