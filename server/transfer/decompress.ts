/** @module The portable decompressor: gzip through the web-standard `DecompressionStream`; the Node runtime adds xz and zstd. */
import type { Decompress } from './linux-packages.ts'

export const webDecompress: Decompress = async (format, data, maxBytes) => {
  if (format !== 'gzip') throw new Error(`${format} is not readable in this runtime`)
  const reader = new Blob([new Uint8Array(data)]).stream().pipeThrough(new DecompressionStream('gzip')).getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value: chunk } = await reader.read()
    if (done) break
    total += chunk.length
    if (total > maxBytes) {
      await reader.cancel()
      throw new Error(`it inflates to more than ${maxBytes} bytes`)
    }
    chunks.push(chunk)
  }
  const out = new Uint8Array(total)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}
