/** @module WebCrypto helpers: ids, password hashing (PBKDF2-SHA256), HMAC, digests. */

const encoder = new TextEncoder()
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** A random id with a type prefix, e.g. `ver_4kQ9...` (matches the spec's `Id`). */
export function randomId(prefix: string, length = 16): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length))
  let out = ''
  for (const b of bytes) out += BASE62[b % 62]
  return `${prefix}_${out}`
}

/** A random secret as lower-case hex. */
export function randomSecret(bytes = 32): string {
  return toHex(crypto.getRandomValues(new Uint8Array(bytes)))
}

export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)
  let out = ''
  for (const b of view) out += b.toString(16).padStart(2, '0')
  return out
}

function toBase64(bytes: Uint8Array): string {
  let s = ''
  for (const b of bytes) s += String.fromCharCode(b)
  return btoa(s)
}

function fromBase64(text: string): Uint8Array {
  const s = atob(text)
  const out = new Uint8Array(s.length)
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i)
  return out
}

/** Compares without an early exit, so timing does not reveal the first difference. */
export function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}

/** OWASP's minimum for PBKDF2-HMAC-SHA256 (Password Storage Cheat Sheet). */
export const DEFAULT_PBKDF2_ITERATIONS = 600_000

async function pbkdf2(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, ['deriveBits'])
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations },
    key,
    256,
  )
  return new Uint8Array(bits)
}

/** `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>` with a 16-byte random salt. */
export async function hashPassword(password: string, iterations = DEFAULT_PBKDF2_ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16))
  const hash = await pbkdf2(password, salt, iterations)
  return `pbkdf2-sha256$${iterations}$${toBase64(salt)}$${toBase64(hash)}`
}

/** The iteration count a stored hash was made with (`undefined` when it is not ours). */
export function hashIterations(stored: string): number | undefined {
  const [scheme, iter] = stored.split('$')
  return scheme === 'pbkdf2-sha256' && iter && /^\d+$/.test(iter) ? Number(iter) : undefined
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iter, salt, hash] = stored.split('$')
  if (scheme !== 'pbkdf2-sha256' || !iter || !salt || !hash) return false
  const actual = await pbkdf2(password, fromBase64(salt), Number(iter))
  return timingSafeEqual(toBase64(actual), hash)
}

const hmacKeys = new Map<string, Promise<CryptoKey>>()

/** `secret` as an HMAC-SHA256 key for `usage`, imported once per secret and usage. */
export function hmacKey(secret: string, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  const id = `${usage}:${secret}`
  let key = hmacKeys.get(id)
  if (!key) {
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [usage])
    hmacKeys.set(id, key)
  }
  return key
}

export async function hmacSha256Hex(secret: string, message: string): Promise<string> {
  return toHex(await crypto.subtle.sign('HMAC', await hmacKey(secret, 'sign'), encoder.encode(message)))
}

export type DigestName = 'SHA-1' | 'SHA-256' | 'SHA-512'

export async function digestHex(name: DigestName, data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === 'string' ? encoder.encode(data) : data
  return toHex(await crypto.subtle.digest(name, bytes as BufferSource))
}

export function hexToBase64(hex: string): string {
  const out = new Uint8Array(hex.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return toBase64(out)
}
