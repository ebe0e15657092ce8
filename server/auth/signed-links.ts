/**
 * @module Signed download links for private apps: `?expires=<unix s>&signature=<hex>` where
 * signature = HMAC-SHA256(key, `<path>\n<expires>`), keyed with `links:` + the JWT secret.
 */
import { hmacSha256Hex, timingSafeEqual } from '../core/crypto.ts'

export const SIGNED_LINK_TTL_SECONDS = 15 * 60

const keyOf = (secret: string) => `links:${secret}`

export async function signPath(secret: string, path: string, expires: number): Promise<string> {
  return hmacSha256Hex(keyOf(secret), `${path}\n${expires}`)
}

/** The query string (without `?`) that makes `path` downloadable until now + 15 min. */
export async function signedQuery(secret: string, path: string, now: Date): Promise<string> {
  const expires = Math.floor(now.getTime() / 1000) + SIGNED_LINK_TTL_SECONDS
  return `expires=${expires}&signature=${await signPath(secret, path, expires)}`
}

export async function verifySignedPath(
  secret: string,
  path: string,
  expires: number,
  signature: string,
  now: Date,
): Promise<boolean> {
  if (expires < Math.floor(now.getTime() / 1000)) return false
  return timingSafeEqual(await signPath(secret, path, expires), signature)
}
