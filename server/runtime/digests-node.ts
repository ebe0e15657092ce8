/** @module Upload digests on node:crypto: the same `DigestStream` as `server/transfer/digests.ts`, native speed. */
import { createHash } from 'node:crypto'
import type { DigestStreamFactory } from '../transfer/digests.ts'

export const nodeDigestStream: DigestStreamFactory = () => {
  const hashes = [createHash('sha1'), createHash('sha256'), createHash('sha512')] as const
  return {
    update(chunk) {
      for (const h of hashes) h.update(chunk)
    },
    digest() {
      const [a, b, c] = hashes.map((h) => h.digest('hex'))
      return { sha1: a!, sha256: b!, sha512: c! }
    },
  }
}
