/**
 * @module `ferry tuf keygen | init | add-key | sign | push`, and the signing step of
 * `ferry publish`. Root and release keys are PEM files (or, for the release key in CI, the
 * FERRY_TUF_KEY variable) that never leave this machine: only metadata, signatures and public
 * keys are sent. Everything but `push` and `publish` runs without a server.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import type { Metadata, Root, Targets } from '@tufjs/models'
import type { FerryClient, Version } from './api.ts'
import { refused, usageError } from './errors.ts'
import type { Io } from './output.ts'
import {
  DEFAULT_TARGETS_DAYS,
  buildRoot,
  expiresInDays,
  newKeyPem,
  nextTargets,
  parseRoot,
  parseTargets,
  publicKey,
  rootWithKey,
  signWith,
  signingKey,
  targetPath,
  type SigningKey,
} from './tuf-metadata.ts'

function readText(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    throw usageError(`${what}: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`)
  }
}

function readJson(file: string, what: string): unknown {
  try {
    return JSON.parse(readText(file, what)) as unknown
  } catch (error) {
    if (error instanceof SyntaxError) throw usageError(`${what}: ${file} is not JSON: ${error.message}`)
    throw error
  }
}

function readRoot(file: string): Metadata<Root> {
  try {
    return parseRoot(readJson(file, 'root'))
  } catch (error) {
    throw usageError(`${file} is not TUF root metadata: ${error instanceof Error ? error.message : String(error)}`)
  }
}

const writeJson = (file: string, md: Metadata<Root>) => writeFileSync(file, `${JSON.stringify(md.toJSON(), null, 2)}\n`)

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`

/** How many of the root role's keys signed `md` validly, and how many it needs. */
function rootSignatures(md: Metadata<Root>): { valid: number; threshold: number } {
  const role = md.signed.roles.root
  let valid = 0
  for (const id of role?.keyIDs ?? []) {
    try {
      md.signed.keys[id]?.verifySignature(md)
      if (md.signed.keys[id] && md.signatures[id]) valid++
    } catch {
      // Unsigned by this key, or a bad signature: not counted.
    }
  }
  return { valid, threshold: role?.threshold ?? 1 }
}

function reportSignatures(md: Metadata<Root>, file: string, io: Io): void {
  const { valid, threshold } = rootSignatures(md)
  io.out(
    valid >= threshold
      ? `${file}: root version ${md.signed.version}, signed by ${valid} of the ${threshold} root keys needed`
      : `${file}: root version ${md.signed.version}, signed by ${valid} of the ${threshold} root keys needed; sign it with ferry tuf sign ${file} --key <root key> on the other keys' machines`,
  )
}

/** `ferry tuf keygen <file>`: a new ed25519 key, written readable by its owner only. */
export async function keygen(file: string, io: Io): Promise<void> {
  if (existsSync(file)) throw usageError(`${file} exists; a key is never overwritten`)
  const pem = newKeyPem()
  writeFileSync(file, pem, { mode: 0o600, flag: 'wx' })
  io.out(`${file}: ed25519 key ${(await signingKey(pem, file)).keyid}`)
}

export interface InitOptions {
  rootKeys: string[]
  rootThreshold: number
  targetsKeys: string[]
  targetsThreshold: number
  onlineKey: string
  out: string
  days: number
}

/**
 * `ferry tuf init`: root version 1 from key files, signed by each root key given as a private
 * key (a public one is listed but signs elsewhere, with `ferry tuf sign`).
 */
export async function init(options: InitOptions, io: Io): Promise<void> {
  if (options.rootKeys.length === 0) throw usageError('tuf init: give at least one --root-key <file>')
  if (options.targetsKeys.length === 0) throw usageError('tuf init: give at least one --targets-key <file>')
  if (existsSync(options.out)) throw usageError(`${options.out} exists; init writes a new root only`)
  const load = async (file: string) => {
    const text = readText(file, 'key')
    const isPrivate = text.includes('PRIVATE KEY')
    return isPrivate ? await signingKey(text, file) : { ...(await publicKey(text, file)), privateKey: undefined }
  }
  const rootKeys = await Promise.all(options.rootKeys.map(load))
  const targetsKeys = await Promise.all(options.targetsKeys.map(async (f) => publicKey(readText(f, 'key'), f)))
  const online = await publicKey(readText(options.onlineKey, '--online-key'), options.onlineKey)
  const root = buildRoot({
    version: 1,
    expires: expiresInDays(options.days),
    root: { keys: rootKeys, threshold: options.rootThreshold },
    targets: { keys: targetsKeys, threshold: options.targetsThreshold },
    online,
  })
  signWith(
    root,
    rootKeys.filter((k): k is SigningKey => k.privateKey !== undefined),
  )
  writeJson(options.out, root)
  reportSignatures(root, options.out, io)
}

/** `ferry tuf add-key`: the next root version with a key added to a role, unsigned. */
export async function addKey(
  file: string,
  options: { role: 'root' | 'targets'; key: string; threshold?: number; out: string; days: number },
  io: Io,
): Promise<void> {
  const current = readRoot(file)
  const key = await publicKey(readText(options.key, '--key'), options.key)
  const next = rootWithKey(current, options.role, key, options.threshold, expiresInDays(options.days))
  writeJson(options.out, next)
  io.out(
    `${options.out}: root version ${next.signed.version} adds ${key.keyid} to ${options.role} (threshold ${next.signed.roles[options.role]?.threshold ?? 1}); ` +
      `sign it with the keys of version ${current.signed.version} and of itself (ferry tuf sign)`,
  )
}

/** `ferry tuf sign <root.json> --key <file>`: adds one signature, in place. */
export async function signRoot(file: string, keyFile: string, io: Io): Promise<void> {
  const md = readRoot(file)
  const key = await signingKey(readText(keyFile, '--key'), keyFile)
  if (!md.signed.keys[key.keyid])
    io.err(`note: ${keyFile} (${key.keyid}) is not a key of this root; its signature counts only for the previous root`)
  signWith(md, [key])
  writeJson(file, md)
  reportSignatures(md, file, io)
}

/** `ferry tuf push <root.json> --app <slug>`: stores a signed root on the server. */
export async function pushRoot(client: FerryClient, app: string, file: string, io: Io): Promise<void> {
  const md = readRoot(file)
  const stored = await client.publishTuf(app, 'root.json', md.toJSON())
  io.out(`${app}: root version ${stored.version} stored`)
}

/** The release key from `--tuf-key <file>` or FERRY_TUF_KEY (the PEM itself), read before anything is sent. */
export async function releaseKey(file: string | undefined, env: Record<string, string | undefined>) {
  if (file !== undefined) return signingKey(readText(file, '--tuf-key'), `--tuf-key ${file}`)
  const pem = env.FERRY_TUF_KEY
  return pem ? signingKey(pem, 'FERRY_TUF_KEY') : undefined
}

/**
 * Before any upload: whether the app publishes signed metadata, and if so that the release key
 * is one its root gives the targets role, and the targets it holds now (checked to carry this
 * key's signature, so a tampered list is never re-signed).
 */
export async function prepareSigning(
  client: FerryClient,
  app: string,
  key: SigningKey | undefined,
): Promise<{ key: SigningKey; previous: Metadata<Targets> | undefined } | undefined> {
  const rootJson = await client.tufFile(app, 'root.json')
  if (rootJson === undefined) {
    if (key)
      throw usageError(
        `${app} has no TUF root on this server, so a release key has nothing to sign; store one with ferry tuf init and ferry tuf push, or publish without --tuf-key / FERRY_TUF_KEY. Nothing uploaded`,
      )
    return undefined
  }
  if (!key)
    throw usageError(
      `${app} publishes signed metadata (TUF): pass --tuf-key <file> or set FERRY_TUF_KEY to the release key. Nothing uploaded`,
    )
  const root = parseRoot(rootJson)
  if (!root.signed.roles.targets?.keyIDs.includes(key.keyid))
    throw usageError(
      `the release key ${key.keyid} is not a targets key of ${app}'s root version ${root.signed.version}. Nothing uploaded`,
    )
  const previousJson = await client.tufFile(app, 'targets.json')
  if (previousJson === undefined) return { key, previous: undefined }
  const previous = parseTargets(previousJson)
  try {
    const listed = root.signed.keys[key.keyid]
    if (!listed) throw new Error('not listed')
    listed.verifySignature(previous)
  } catch {
    throw refused(
      `the server's targets version ${previous.signed.version} of ${app} does not carry a valid signature of ${key.keyid}: refusing to sign what it lists again. Nothing uploaded`,
    )
  }
  return { key, previous }
}

/** Signs targets naming every artifact of `versions` (added to what `previous` lists) and stores them. */
export async function signTargets(
  client: FerryClient,
  app: string,
  signing: { key: SigningKey; previous: Metadata<Targets> | undefined },
  versions: Version[],
  io: Io,
): Promise<void> {
  const listed = new Set(Object.keys(signing.previous?.signed.targets ?? {}))
  const added = versions.flatMap((v) =>
    v.artifacts
      .map((a) => ({
        versionId: v.id,
        artifactId: a.id,
        size: a.size,
        sha256: a.sha256,
        sha512: a.sha512,
        custom: { app, version: v.version, channel: v.channel, platform: v.platform, arch: v.arch },
      }))
      .filter((a) => !listed.has(targetPath(a))),
  )
  if (added.length === 0) return io.out('signed metadata: every file is already listed')
  const targets = nextTargets(signing.previous, added, expiresInDays(DEFAULT_TARGETS_DAYS))
  signWith(targets, [signing.key])
  const stored = await client.publishTuf(app, 'targets.json', targets.toJSON())
  io.out(
    `signed metadata: targets version ${stored.version} lists ${count(stored.targets ?? 0, 'file')}, signed by ${signing.key.keyid}`,
  )
}
