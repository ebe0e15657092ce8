/**
 * @module Who signed a macOS disk image (`.dmg`). A UDIF image ends with a 512-byte `koly` trailer
 * (big-endian) whose CodeSignatureOffset and CodeSignatureLength (bytes 296 and 304) point at an
 * embedded signature: the SuperBlob a Mach-O carries (macho-signature.ts), with a CodeDirectory
 * that hashes the image as a whole and a CMS blob. Only the trailer and that signature are read,
 * by ranges, so a large image costs two small reads. No signature, or an ad-hoc one (a CMS blob
 * with no data), reads as unsigned. A stapled notarization ticket is one more slot, skipped.
 */
import type { BlobStore } from '../../core/storage.ts'
import type { SignerReading } from './authenticode.ts'
import { MAX_SIGNATURE, superBlobIdentity } from './macho-signature.ts'
import { blobRangeReader, MsixManifestError, type RangeReader } from './msix-manifest.ts'

const TRAILER = 512
const KOLY = 0x6b6f6c79
const SIGNATURE_OFFSET = 296
const SIGNATURE_LENGTH = 304

/** A big-endian 64-bit field; images past 2^53 bytes do not exist, and larger values fail the bounds checks. */
const u64 = (view: DataView, at: number) => view.getUint32(at) * 2 ** 32 + view.getUint32(at + 4)

/**
 * The Apple code-signing identity of the disk image read by `read`, `size` bytes: its Team ID,
 * `null` when unsigned or ad-hoc signed, why it cannot be read, or `undefined` when it is no UDIF
 * image (no `koly` trailer; a raw image cannot carry a signature).
 */
export async function diskImageSigner(read: RangeReader, size: number): Promise<SignerReading | undefined> {
  if (size < TRAILER) return undefined
  try {
    const trailer = await read(size - TRAILER, size - 1)
    const view = new DataView(trailer.buffer, trailer.byteOffset, trailer.byteLength)
    if (trailer.length !== TRAILER || view.getUint32(0) !== KOLY || view.getUint32(8) !== TRAILER) return undefined
    const offset = u64(view, SIGNATURE_OFFSET)
    const length = u64(view, SIGNATURE_LENGTH)
    if (length === 0) return { identity: null }
    if (length > MAX_SIGNATURE || offset + length > size - TRAILER)
      return { problem: `has a code signature of ${length} bytes at offset ${offset} that does not fit the file` }
    if (length < 12) return { problem: 'has a code signature that is not a valid SuperBlob' }
    const reading = await superBlobIdentity(await read(offset, offset + length - 1))
    if ('problem' in reading) return reading
    return { identity: reading.identity ? { kind: 'apple', ...reading.identity } : null }
  } catch (error) {
    if (error instanceof MsixManifestError) return { problem: error.message }
    throw error
  }
}

/** The signer of the disk image stored at `key`; `undefined` when it is no UDIF image. */
export function dmgSigner(blobs: BlobStore, key: string, size: number): Promise<SignerReading | undefined> {
  return diskImageSigner(blobRangeReader(blobs, key), size)
}
