/** @module Digests of a local file in one streamed pass (never read whole into memory). */
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'

export interface FileDigests {
  size: number
  sha1: string
  sha256: string
  sha512Base64: string
}

export async function digestFile(path: string): Promise<FileDigests> {
  const sha1 = createHash('sha1')
  const sha256 = createHash('sha256')
  const sha512 = createHash('sha512')
  let size = 0
  for await (const chunk of createReadStream(path)) {
    if (!(chunk instanceof Buffer)) continue
    size += chunk.byteLength
    sha1.update(chunk)
    sha256.update(chunk)
    sha512.update(chunk)
  }
  return { size, sha1: sha1.digest('hex'), sha256: sha256.digest('hex'), sha512Base64: sha512.digest('base64') }
}
