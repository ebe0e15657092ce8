/**
 * @module A TUF ed25519 public key as root metadata lists it, and its key id (the SHA-256 of the
 * key's canonical JSON, TUF specification §4.2): the server and `ferry tuf` name keys alike.
 */
import { canonicalize } from '@tufjs/canonical-json'

export interface TufPublicKey {
  keytype: 'ed25519'
  scheme: 'ed25519'
  keyval: { public: string }
}

/** The key for a raw 32-byte ed25519 public key given as hex. */
export const ed25519Key = (publicHex: string): TufPublicKey => ({
  keytype: 'ed25519',
  scheme: 'ed25519',
  keyval: { public: publicHex },
})

export async function tufKeyId(key: TufPublicKey): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonicalize(key)))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}
