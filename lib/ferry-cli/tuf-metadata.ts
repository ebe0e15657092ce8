/**
 * @module TUF metadata on the team's side (@tufjs/models): ed25519 keys as PKCS#8 PEM files,
 * a root with thresholds, a targets file naming uploaded artifacts, and signatures. Nothing here
 * talks to a server: the private keys stay on the machine that runs `ferry tuf` or `ferry publish`.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto'
import { Metadata, MetadataKind, Signature, TargetFile, Targets, type Root } from '@tufjs/models'
import { ed25519Key, tufKeyId, type TufPublicKey } from '../../contract/tuf-keys.ts'
import { usageError } from './errors.ts'

export const SPEC_VERSION = '1.0.31'
const DAY_MS = 86_400_000

/** A private key the CLI signs with, and the public key TUF names it by. */
export interface SigningKey {
  keyid: string
  public: TufPublicKey
  privateKey: KeyObject
}

/** A key as a root lists it: its id and public half. */
export interface PublicKey {
  keyid: string
  public: TufPublicKey
}

/** TUF's date form: seconds, `Z`. */
export const tufDate = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z')

async function publicOf(key: KeyObject): Promise<PublicKey> {
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`an ${key.asymmetricKeyType ?? 'unknown'} key`)
  const pub = key.type === 'public' ? key : createPublicKey(key)
  const raw = pub.export({ format: 'der', type: 'spki' }).subarray(-32)
  const tufKey = ed25519Key(raw.toString('hex'))
  return { keyid: await tufKeyId(tufKey), public: tufKey }
}

/** A new ed25519 key as PKCS#8 PEM (what `openssl genpkey -algorithm ed25519` writes). */
export function newKeyPem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString()
}

/** Reads a PKCS#8 PEM ed25519 private key; `where` names the file or variable in the error. */
export async function signingKey(pem: string, where: string): Promise<SigningKey> {
  let privateKey: KeyObject
  try {
    privateKey = createPrivateKey({ key: pem, format: 'pem' })
  } catch {
    throw usageError(`${where} is not a PEM private key (make one with: ferry tuf keygen <file>)`)
  }
  try {
    return { ...(await publicOf(privateKey)), privateKey }
  } catch (error) {
    throw usageError(`${where} holds ${error instanceof Error ? error.message : 'a key'}, not an ed25519 key`)
  }
}

/** Reads a public key: a PEM public or private key, or a TUF key object (as `online-key.json`). */
export async function publicKey(text: string, where: string): Promise<PublicKey> {
  const trimmed = text.trim()
  if (trimmed.startsWith('{')) {
    const json = JSON.parse(trimmed) as { keytype?: unknown; keyval?: { public?: unknown } }
    if (json.keytype !== 'ed25519' || typeof json.keyval?.public !== 'string')
      throw usageError(`${where} is not an ed25519 TUF key (keytype ed25519, keyval.public)`)
    const pub = ed25519Key(json.keyval.public)
    return { keyid: await tufKeyId(pub), public: pub }
  }
  try {
    return await publicOf(createPublicKey(trimmed))
  } catch {
    throw usageError(`${where} is not an ed25519 key (PEM, or a TUF key object)`)
  }
}

/** Appends each key's signature of the signed part. */
export function signWith<T extends Root | Targets>(md: Metadata<T>, keys: SigningKey[]): void {
  for (const key of keys)
    md.sign((data) => new Signature({ keyID: key.keyid, sig: sign(null, data, key.privateKey).toString('hex') }))
}

type Json = Record<string, never>

const keyJson = (k: PublicKey) => ({
  keytype: 'ed25519',
  scheme: 'ed25519',
  keyval: { public: k.public.keyval.public },
})
const rootMetadata = (signed: object) =>
  Metadata.fromJSON(MetadataKind.Root, { signed, signatures: [] } as unknown as Json)

export interface RootPlan {
  version: number
  expires: Date
  root: { keys: PublicKey[]; threshold: number }
  targets: { keys: PublicKey[]; threshold: number }
  /** The server's online key (`online-key.json`): snapshot and timestamp, threshold 1. */
  online: PublicKey
}

/** An unsigned root: consistent snapshots, the online key on snapshot and timestamp. */
export function buildRoot(plan: RootPlan): Metadata<Root> {
  for (const role of ['root', 'targets'] as const) {
    const { keys, threshold } = plan[role]
    if (threshold < 1 || threshold > keys.length)
      throw usageError(`the ${role} threshold ${threshold} needs between 1 and ${keys.length} (the ${role} keys given)`)
  }
  const role = (keys: PublicKey[], threshold: number) => ({ keyids: keys.map((k) => k.keyid), threshold })
  const all = [...plan.root.keys, ...plan.targets.keys, plan.online]
  return rootMetadata({
    _type: 'root',
    spec_version: SPEC_VERSION,
    version: plan.version,
    expires: tufDate(plan.expires),
    consistent_snapshot: true,
    keys: Object.fromEntries(all.map((k) => [k.keyid, keyJson(k)])),
    roles: {
      root: role(plan.root.keys, plan.root.threshold),
      targets: role(plan.targets.keys, plan.targets.threshold),
      snapshot: role([plan.online], 1),
      timestamp: role([plan.online], 1),
    },
  })
}

/** The next root version with `key` added to `role` (and `threshold` if given), unsigned. */
export function rootWithKey(
  current: Metadata<Root>,
  role: 'root' | 'targets',
  key: PublicKey,
  threshold?: number,
  expires = new Date(Date.now() + 365 * DAY_MS),
): Metadata<Root> {
  const signed = current.signed.toJSON() as {
    keys: Record<string, unknown>
    roles: Record<string, { keyids: string[]; threshold: number }>
  }
  const r = signed.roles[role]
  if (!r) throw usageError(`the root has no ${role} role`)
  return rootMetadata({
    ...signed,
    version: current.signed.version + 1,
    expires: tufDate(expires),
    keys: { ...signed.keys, [key.keyid]: keyJson(key) },
    roles: {
      ...signed.roles,
      [role]: {
        keyids: r.keyids.includes(key.keyid) ? r.keyids : [...r.keyids, key.keyid],
        threshold: threshold ?? r.threshold,
      },
    },
  })
}

/** An artifact as the server holds it, named by its download path below `/v1/apps/{app}/versions/`. */
export interface TargetArtifact {
  versionId: string
  artifactId: string
  size: number
  sha256: string
  sha512?: string
  custom?: Record<string, string>
}

export const targetPath = (a: Pick<TargetArtifact, 'versionId' | 'artifactId'>) =>
  `${a.versionId}/artifacts/${a.artifactId}/download`

/** The next targets version: every target of `previous` plus `added`, unsigned. */
export function nextTargets(previous: Metadata<Targets> | undefined, added: TargetArtifact[], expires: Date) {
  const targets: Record<string, TargetFile> = { ...previous?.signed.targets }
  for (const a of added) {
    const path = targetPath(a)
    targets[path] = new TargetFile({
      path,
      length: a.size,
      hashes: { sha256: a.sha256, ...(a.sha512 ? { sha512: a.sha512 } : {}) },
      ...(a.custom ? { unrecognizedFields: { custom: a.custom } } : {}),
    })
  }
  return new Metadata(
    new Targets({
      version: (previous?.signed.version ?? 0) + 1,
      specVersion: SPEC_VERSION,
      expires: tufDate(expires),
      targets,
    }),
  )
}

export const parseRoot = (json: unknown) => Metadata.fromJSON(MetadataKind.Root, json as Json)
export const parseTargets = (json: unknown) => Metadata.fromJSON(MetadataKind.Targets, json as Json)
export const DEFAULT_TARGETS_DAYS = 90
export const expiresInDays = (days: number) => new Date(Date.now() + days * DAY_MS)
