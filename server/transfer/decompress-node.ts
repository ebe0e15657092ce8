/** @module The Node runtime's decompressors for `.deb` control members: zlib's gzip and zstd, and xz (@napi-rs/lzma). */
import { gunzipSync, zstdDecompressSync } from 'node:zlib'
import { xz } from '@napi-rs/lzma'
import type { Decompress } from './linux-packages.ts'

export const nodeDecompress: Decompress = async (format, data, maxBytes) => {
  if (format === 'gzip') return gunzipSync(data, { maxOutputLength: maxBytes })
  if (format === 'zstd') return zstdDecompressSync(data, { maxOutputLength: maxBytes })
  const out = await xz.decompress(data)
  if (out.length > maxBytes) throw new Error(`it inflates to more than ${maxBytes} bytes`)
  return out
}
