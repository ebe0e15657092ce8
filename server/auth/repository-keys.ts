/**
 * @module Each app's repository signing key (OpenPGP, openpgp v6): made on first use, stored with
 * its private half encrypted under a passphrase derived from the server secret, and used to sign
 * apt `InRelease`/`Release.gpg` and rpm `repomd.xml.asc`. Keys are v4 Ed25519 (GnuPG's `gpgv`,
 * which apt and dnf call, reads them; v6 keys it does not).
 */
import * as openpgp from 'openpgp'
import { hmacSha256Hex } from '../core/crypto.ts'
import type { SigningKeyRow } from '../storage/releases/linux-repositories.ts'

const passphraseOf = (secret: string, slug: string) => hmacSha256Hex(secret, `ferry repository key ${slug}`)

/** A new key for the app, its private half encrypted. */
export async function generateRepositoryKey(
  secret: string,
  slug: string,
  appName: string,
  now: Date,
): Promise<SigningKeyRow> {
  const { privateKey, publicKey } = await openpgp.generateKey({
    type: 'ecc',
    curve: 'ed25519Legacy',
    userIDs: [{ name: `${appName} repository (Ferry)` }],
    date: now,
    passphrase: await passphraseOf(secret, slug),
    format: 'armored',
  })
  const key = await openpgp.readKey({ armoredKey: publicKey })
  return {
    app_slug: slug,
    fingerprint: key.getFingerprint().toUpperCase(),
    public_key: publicKey,
    private_key: privateKey,
    created_at: now.toISOString(),
  }
}

/** Signs repository indexes with one unlocked key. */
export interface IndexSigner {
  /** An `InRelease`: the text clear-signed. */
  clearSign(text: string, date: Date): Promise<string>
  /** An armored detached signature (`Release.gpg`, `repomd.xml.asc`). */
  detachSign(text: string, date: Date): Promise<string>
}

/** Unlocks the key (its S2K costs about a quarter second in JS: callers keep the signer). */
export async function indexSigner(secret: string, row: SigningKeyRow): Promise<IndexSigner> {
  const privateKey = await openpgp.decryptKey({
    privateKey: await openpgp.readPrivateKey({ armoredKey: row.private_key }),
    passphrase: await passphraseOf(secret, row.app_slug),
  })
  return {
    async clearSign(text, now) {
      // openpgp writes the text with CRLF; the signature covers canonical CRLF text either way, and apt reads LF.
      return (
        await openpgp.sign({
          message: await openpgp.createCleartextMessage({ text }),
          signingKeys: privateKey,
          date: now,
        })
      ).replace(/\r\n/g, '\n')
    },
    async detachSign(text, now) {
      return openpgp.sign({
        message: await openpgp.createMessage({ binary: new TextEncoder().encode(text) }),
        signingKeys: privateKey,
        detached: true,
        date: now,
      })
    },
  }
}
