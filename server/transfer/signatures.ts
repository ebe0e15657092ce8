/**
 * @module Update signatures checked at upload, against the public keys an app holds: Tauri's
 * minisign signatures (`<bundle>.sig`) and Sparkle's EdDSA signatures (`<file>.edsig`, the output
 * of `sign_update`). Ed25519 is the runtime's WebCrypto (Node and browsers); BLAKE2b-512 for
 * minisign's prehashed signatures is @noble/hashes. Formats: minisign's (jedisct1/minisign,
 * `minisign_verify`: public key `Ed` + key id + key; signature `Ed`/`ED` + key id + signature,
 * then a trusted comment and a global signature over signature ‖ comment), Sparkle's
 * `sign_update` (base64 of 64 bytes, or `sparkle:edSignature="…" length="…"`).
 */
import { blake2b } from '@noble/hashes/blake2.js'
import type { BlobStore } from '../core/storage.ts'

const text = new TextDecoder()

function base64Bytes(value: string): Uint8Array | undefined {
  const clean = value.trim()
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(clean) || clean.length % 4 !== 0) return undefined
  try {
    return Uint8Array.from(atob(clean), (c) => c.charCodeAt(0))
  } catch {
    return undefined
  }
}

/** Tauri wraps minisign's files in one more base64 layer; plain minisign text is accepted too. */
function minisignLines(value: string): string[] | undefined {
  const raw = value.trim().startsWith('untrusted comment:')
    ? value
    : (() => {
        const bytes = base64Bytes(value)
        return bytes && text.decode(bytes)
      })()
  return raw
    ?.split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
}

export interface MinisignKey {
  keyId: Uint8Array
  key: Uint8Array
}

/** A Tauri `pubkey` (base64 of minisign's `.pub` file) or minisign's key line; `undefined` when it is neither. */
export function parseMinisignPublicKey(value: string): MinisignKey | undefined {
  const lines = minisignLines(value)
  const line = lines?.find((l) => !l.startsWith('untrusted comment:')) ?? value
  const bytes = base64Bytes(line)
  if (!bytes || bytes.length !== 42 || bytes[0] !== 0x45 || bytes[1] !== 0x64) return undefined // "Ed"
  return { keyId: bytes.slice(2, 10), key: bytes.slice(10) }
}

/** A Sparkle `SUPublicEDKey`: base64 of 32 bytes. */
export function parseSparklePublicKey(value: string): Uint8Array | undefined {
  const bytes = base64Bytes(value)
  return bytes?.length === 32 ? bytes : undefined
}

async function ed25519Verify(publicKey: Uint8Array, signature: Uint8Array, message: Uint8Array): Promise<boolean> {
  const key = await crypto.subtle.importKey('raw', publicKey as Uint8Array<ArrayBuffer>, { name: 'Ed25519' }, false, [
    'verify',
  ])
  return crypto.subtle.verify(
    { name: 'Ed25519' },
    key,
    signature as Uint8Array<ArrayBuffer>,
    message as Uint8Array<ArrayBuffer>,
  )
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i])

/** Streams a blob to `onChunk`; a missing blob throws, or returns false when `required` is false. */
async function readBlob(
  blobs: BlobStore,
  key: string,
  onChunk: (chunk: Uint8Array) => void,
  required = true,
): Promise<boolean> {
  const blob = await blobs.get(key)
  if (!blob) {
    if (required) throw new Error(`blob ${key} is missing`)
    return false
  }
  const reader = blob.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return true
    onChunk(value)
  }
}

/** A small blob as text; `undefined` when it is larger than `limit` or gone. */
async function blobText(blobs: BlobStore, key: string, limit: number): Promise<string | undefined> {
  const chunks: Uint8Array[] = []
  let size = 0
  if (
    !(await readBlob(
      blobs,
      key,
      (c) => {
        size += c.length
        if (size <= limit) chunks.push(c)
      },
      false,
    ))
  )
    return undefined
  return size > limit ? undefined : text.decode(concat(chunks, size))
}

/** The whole blob in memory (Ed25519 over a file, unhashed, needs all of it). */
async function blobBytes(blobs: BlobStore, key: string): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  let size = 0
  await readBlob(blobs, key, (c) => {
    chunks.push(c)
    size += c.length
  })
  return concat(chunks, size)
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}

/** Why a signature does not verify, or which of the keys it was checked against verified it. */
export type SignatureCheck = string | { key: number }

/**
 * Why a minisign signature of the file in `fileKey` does not verify with the one of `keys` whose
 * key id it names (the current key, and the next one during a rotation), or that key's index.
 */
export async function minisignProblem(
  blobs: BlobStore,
  keys: MinisignKey[],
  sigKey: string,
  fileKey: string,
): Promise<SignatureCheck> {
  const sigText = await blobText(blobs, sigKey, 4096)
  const lines = sigText === undefined ? undefined : minisignLines(sigText)
  if (
    !lines ||
    lines.length !== 4 ||
    !lines[0]?.startsWith('untrusted comment:') ||
    !lines[2]?.startsWith('trusted comment:')
  ) {
    return 'is not a minisign signature (base64 of four lines: untrusted comment, signature, trusted comment, global signature)'
  }
  const sig = base64Bytes(lines[1] ?? '')
  const global = base64Bytes(lines[3] ?? '')
  if (!sig || sig.length !== 74 || !global || global.length !== 64)
    return 'is not a minisign signature (wrong signature length)'
  const algorithm = String.fromCharCode(sig[0] ?? 0, sig[1] ?? 0)
  if (algorithm !== 'Ed' && algorithm !== 'ED')
    return `uses the unknown minisign algorithm ${JSON.stringify(algorithm)}`
  const key = keys.find((k) => sameBytes(sig.slice(2, 10), k.keyId))
  if (!key)
    return `was made with another key than the app's ${keys.length > 1 ? 'current and next Tauri keys' : 'tauriPublicKey'} (key ids differ)`
  const signature = sig.slice(10)
  let message: Uint8Array
  if (algorithm === 'ED') {
    const hash = blake2b.create({ dkLen: 64 })
    await readBlob(blobs, fileKey, (c) => hash.update(c))
    message = hash.digest()
  } else {
    message = await blobBytes(blobs, fileKey)
  }
  if (!(await ed25519Verify(key.key, signature, message))) return "does not verify with the app's tauriPublicKey"
  const comment = new TextEncoder().encode((lines[2] ?? '').slice('trusted comment:'.length).trim())
  if (!(await ed25519Verify(key.key, global, concat([signature, comment], signature.length + comment.length)))) {
    return "has a trusted comment that does not verify with the app's tauriPublicKey"
  }
  return { key: keys.indexOf(key) }
}

/** The signature in a `.edsig` file: `sign_update -p`'s bare base64, or its default `sparkle:edSignature="…" length="…"`. */
export function parseEdSignatureFile(content: string): { signature: string; length: number | undefined } | undefined {
  const trimmed = content.trim()
  const attr = /^sparkle:edSignature="([A-Za-z0-9+/=]+)"(?:\s+length="(\d+)")?$/.exec(trimmed)
  const signature = attr ? (attr[1] ?? '') : trimmed
  const bytes = base64Bytes(signature)
  if (!bytes || bytes.length !== 64) return undefined
  return { signature, length: attr?.[2] === undefined ? undefined : Number(attr[2]) }
}

/** Reads a `.edsig` blob; `undefined` when it is not one. */
export async function readEdSignature(
  blobs: BlobStore,
  sigKey: string,
): Promise<{ signature: string; length: number | undefined } | undefined> {
  const content = await blobText(blobs, sigKey, 1024)
  return content === undefined ? undefined : parseEdSignatureFile(content)
}

/** Why a Sparkle EdDSA signature of the file in `fileKey` verifies with none of `keys` (current, then next), or the index of the one that does. */
export async function edSignatureProblem(
  blobs: BlobStore,
  keys: Uint8Array[],
  sigKey: string,
  fileKey: string,
  fileSize: number,
): Promise<SignatureCheck> {
  const parsed = await readEdSignature(blobs, sigKey)
  if (!parsed)
    return 'is not a Sparkle EdDSA signature (base64 of 64 bytes, or sign_update\'s sparkle:edSignature="…" length="…")'
  if (parsed.length !== undefined && parsed.length !== fileSize)
    return `names length ${parsed.length}, but the file has ${fileSize} bytes`
  // Ed25519 hashes the whole message with its signature's R first: the file is read into memory.
  const signature = base64Bytes(parsed.signature) as Uint8Array
  const file = await blobBytes(blobs, fileKey)
  for (const [i, key] of keys.entries()) if (await ed25519Verify(key, signature, file)) return { key: i }
  return `does not verify with the app's ${keys.length > 1 ? 'current or next Sparkle key' : 'sparklePublicKey'}`
}
