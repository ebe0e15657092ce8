/**
 * @module Who signed a Windows installer: the Authenticode publisher of a PE file (`.exe`) or of
 * an MSI package (`.msi`). The PE's certificate table (data directory 4, a file offset) holds a
 * WIN_CERTIFICATE whose PKCS#7 SignedData names its signer; an MSI, an OLE compound file, keeps
 * the same SignedData as its root stream `\x05DigitalSignature`. The signer certificate's
 * subject CN and O, and the SHA-256 of its DER, are the identity. Parsed with pkijs/asn1js. Ferry reads the identity; it does not
 * check the signature or the chain (Windows and the updater do that on the device).
 */
import { fromBER } from 'asn1js'
import { Certificate, ContentInfo, SignedData, IssuerAndSerialNumber } from 'pkijs'
import type { BlobStore } from '../../core/storage.ts'
import { readRange } from './blob-range.ts'
import { rootStream } from './compound-file.ts'

export interface SignerIdentity {
  /** `apple`: a macOS code signature (macho-signature.ts), whose publisher is its Team ID. */
  kind: 'authenticode' | 'apple'
  commonName: string | null
  organization: string | null
  /** SHA-256 of the signer certificate's DER, lowercase hex. */
  fingerprint: string
  /** The Apple Developer Team ID (kind `apple`): the certificate's subject OU. */
  teamId?: string
}

/** What the file says: signed by `identity`, unsigned (`null`), or why it cannot be read. */
export type SignerReading = { identity: SignerIdentity | null } | { problem: string }

/** A signature larger than this is refused rather than read into memory (real ones are a few KiB). */
const MAX_CERTIFICATE_TABLE = 1024 * 1024
/** An MSI's directory or mini FAT larger than this is refused (real ones are a few KiB). */
const MAX_MSI_TABLE = 4 * 1024 * 1024
const SIGNED_DATA = '1.2.840.113549.1.7.2'
const WIN_CERT_TYPE_PKCS_SIGNED_DATA = 0x0002

/** The certificate table's file offset and size; `null` when the file is not a PE or has none. */
async function certificateTable(
  blobs: BlobStore,
  key: string,
  size: number,
): Promise<{ offset: number; size: number } | null> {
  const dos = await readRange(blobs, key, 0, Math.min(size, 64))
  if (!dos || dos.length < 64 || dos[0] !== 0x4d || dos[1] !== 0x5a) return null // "MZ"
  const peOffset = new DataView(dos.buffer).getUint32(0x3c, true)
  // Signature (4) + COFF header (20) + the optional header up to its data directories (at most 112 + 8 * 5).
  const head = peOffset + 24 + 152 <= size ? await readRange(blobs, key, peOffset, 24 + 152) : undefined
  if (!head) return null
  const view = new DataView(head.buffer)
  if (view.getUint32(0, true) !== 0x00004550) return null // "PE\0\0"
  const magic = view.getUint16(24, true)
  const directories = magic === 0x10b ? 24 + 96 : magic === 0x20b ? 24 + 112 : -1
  if (directories < 0) return null
  const count = view.getUint32(directories - 4, true)
  if (count < 5) return null
  const offset = view.getUint32(directories + 4 * 8, true)
  const length = view.getUint32(directories + 4 * 8 + 4, true)
  return offset === 0 || length === 0 ? null : { offset, size: length }
}

export function attribute(cert: Certificate, oid: string): string | null {
  const found = cert.subject.typesAndValues.find((tv) => tv.type === oid)
  const value: unknown = found?.value.valueBlock.value
  return typeof value === 'string' ? value : null
}

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('')

/** The signer certificate of a PKCS#7 SignedData in DER, or why it names none. */
export function signedDataCertificate(der: Uint8Array): { certificate: Certificate } | { problem: string } {
  let signed: SignedData
  try {
    // asn1js throws on some malformed values (a GeneralizedTime that is no time) rather than failing the parse.
    const asn = fromBER(der)
    if (asn.offset === -1) return { problem: 'has a signature that is not DER (PKCS#7 SignedData)' }
    const info = new ContentInfo({ schema: asn.result })
    if (info.contentType !== SIGNED_DATA) return { problem: 'has a signature that is not PKCS#7 SignedData' }
    signed = new SignedData({ schema: info.content })
  } catch {
    return { problem: 'has a signature that is not PKCS#7 SignedData' }
  }
  const sid = signed.signerInfos[0]?.sid
  const certificates = (signed.certificates ?? []).filter((c): c is Certificate => c instanceof Certificate)
  const cert =
    sid instanceof IssuerAndSerialNumber
      ? certificates.find((c) => c.issuer.isEqual(sid.issuer) && c.serialNumber.isEqual(sid.serialNumber))
      : undefined
  return cert ? { certificate: cert } : { problem: 'has a signature whose signer certificate is not in it' }
}

/** SHA-256 of a certificate's DER, lowercase hex. */
export async function certificateFingerprint(cert: Certificate): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', cert.toSchema().toBER(false)))
}

/** The signer of a PKCS#7 SignedData in DER, or why it names none. */
export async function signedDataSigner(der: Uint8Array): Promise<SignerReading> {
  const found = signedDataCertificate(der)
  if ('problem' in found) return found
  const cert = found.certificate
  const fingerprint = await certificateFingerprint(cert)
  return {
    identity: {
      kind: 'authenticode',
      commonName: attribute(cert, '2.5.4.3'),
      organization: attribute(cert, '2.5.4.10'),
      fingerprint,
    },
  }
}

/** Reads the Authenticode signer of the PE file stored at `key`; a file that is not a PE reads as unsigned. */
export async function authenticodeSigner(blobs: BlobStore, key: string, size: number): Promise<SignerReading> {
  const table = await certificateTable(blobs, key, size)
  if (!table) return { identity: null }
  if (table.size > MAX_CERTIFICATE_TABLE || table.offset + table.size > size || table.size < 8) {
    return {
      problem: `has a certificate table of ${table.size} bytes at offset ${table.offset} that does not fit the file`,
    }
  }
  const entry = await readRange(blobs, key, table.offset, table.size)
  if (!entry) return { problem: 'has a certificate table Ferry could not read' }
  const view = new DataView(entry.buffer)
  const length = view.getUint32(0, true)
  if (view.getUint16(6, true) !== WIN_CERT_TYPE_PKCS_SIGNED_DATA || length < 8 || length > entry.length) {
    return {
      problem: 'has a certificate table whose first entry is not a PKCS#7 signature (WIN_CERT_TYPE_PKCS_SIGNED_DATA)',
    }
  }
  return signedDataSigner(entry.subarray(8, length))
}

/** Reads the Authenticode signer of the MSI package stored at `key`; a file that is not a compound file reads as unsigned. */
export async function msiSigner(blobs: BlobStore, key: string, size: number): Promise<SignerReading> {
  const stream = await rootStream(blobs, key, size, '\u0005DigitalSignature', {
    stream: MAX_CERTIFICATE_TABLE,
    table: MAX_MSI_TABLE,
  })
  if ('problem' in stream) return stream
  return stream.bytes ? signedDataSigner(stream.bytes) : { identity: null }
}

/** "CN=Acme Ltd, O=Acme (SHA-256 ab12…)", "Team ID 97JCY7859U (Developer ID Application: …)", or "unsigned". */
export function describeSigner(identity: SignerIdentity | null): string {
  if (!identity) return 'unsigned'
  if (identity.kind === 'apple') return `Team ID ${identity.teamId ?? '?'} (${identity.commonName ?? 'no common name'})`
  const names = [
    identity.commonName === null ? '' : `CN=${identity.commonName}`,
    identity.organization === null ? '' : `O=${identity.organization}`,
  ].filter(Boolean)
  return `${names.join(', ') || 'a certificate without a subject name'} (SHA-256 ${identity.fingerprint.slice(0, 16)}…)`
}

/**
 * Same publisher: the subject names an updater compares (electron-updater's `publisherName` is the CN);
 * on macOS the Team ID (Squirrel.Mac refuses an update that fails the app's designated requirement, which names it).
 */
export function samePublisher(a: SignerIdentity | null, b: SignerIdentity | null): boolean {
  if (!a || !b) return a === b
  if (a.kind !== b.kind) return false
  if (a.kind === 'apple') return a.teamId === b.teamId
  return a.commonName === b.commonName && a.organization === b.organization
}
