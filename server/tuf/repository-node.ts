/**
 * @module An app's TUF repository on @tufjs/models: checks a root or targets file the team
 * signed offline against the stored root, holds the targets to the bytes the server stores, and
 * signs snapshot and timestamp with the server's online ed25519 key (kept in the database,
 * PKCS#8 encrypted with the server's secret, so every instance signs with the same key).
 */
import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto'
import {
  Metadata,
  MetadataKind,
  MetaFile,
  Signature,
  Snapshot,
  Timestamp,
  type Root,
  type Targets,
} from '@tufjs/models'
import { ed25519Key, tufKeyId, type TufPublicKey } from '../../contract/tuf-keys.ts'
import type { Db } from '../core/storage.ts'
import { conflict, HttpProblem, validationProblem } from '../core/problem.ts'
import { toHex } from '../core/crypto.ts'
import {
  artifactsForTargets,
  insertTufFile,
  keepOnlineKey,
  latestTufFile,
  onlineKey as storedOnlineKey,
  pruneTimestamps,
  tufFile,
  type TufRole,
} from '../storage/releases/tuf-metadata.ts'
import type { TufOptions, TufRepository } from './repository.ts'

const ONLINE_KEY_ID = 'online'
/** A snapshot lives this many timestamps' lifetimes. */
const SNAPSHOT_LIFETIMES = 7
/** The path of a target: the artifact's download path below `/v1/apps/{app}/versions/`. */
const TARGET_PATH = /^(ver_[A-Za-z0-9]{1,64})\/artifacts\/(art_[A-Za-z0-9]{1,64})\/download$/
const FILE_NAME = /^(?:([1-9][0-9]{0,9})\.)?(root|targets|snapshot|timestamp)\.json$/

interface OnlineKey {
  key: TufPublicKey & { keyid: string }
  privateKey: KeyObject
}

/** TUF's date form: seconds, `Z`. */
const tufDate = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z')

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

const pointerPart = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1')

function problemOf(error: unknown, pointer: string, what: string): HttpProblem {
  if (error instanceof HttpProblem) return error
  const message = error instanceof Error ? error.message : String(error)
  return validationProblem([{ pointer, message: `${what}: ${message}` }])
}

export function openTufRepository(options: TufOptions): TufRepository {
  const { db, now, secret } = options
  const timestampMs = options.timestampSeconds * 1000
  let online: Promise<OnlineKey> | undefined

  async function loadOnlineKey(): Promise<OnlineKey> {
    let row = await storedOnlineKey(db, ONLINE_KEY_ID)
    if (!row) {
      const pair = generateKeyPairSync('ed25519')
      const raw = pair.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32)
      row = await keepOnlineKey(db, {
        id: ONLINE_KEY_ID,
        public_key: toHex(raw),
        private_key: pair.privateKey
          .export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase: secret })
          .toString(),
        created_at: now().toISOString(),
      })
    }
    const key = ed25519Key(row.public_key)
    return {
      key: { ...key, keyid: await tufKeyId(key) },
      privateKey: createPrivateKey({ key: row.private_key, format: 'pem', passphrase: secret }),
    }
  }
  function onlineKey(): Promise<OnlineKey> {
    online ??= loadOnlineKey().catch((error: unknown) => {
      online = undefined
      throw error
    })
    return online
  }

  async function signed<T extends Snapshot | Timestamp>(body: T): Promise<string> {
    const { key, privateKey } = await onlineKey()
    const md = new Metadata(body)
    md.sign((data) => new Signature({ keyID: key.keyid, sig: sign(null, data, privateKey).toString('hex') }))
    return JSON.stringify(md.toJSON())
  }

  const row = (app: string, role: TufRole, version: number, body: string, expires: Date, at: Date) => ({
    app_slug: app,
    role,
    version,
    body,
    expires: expires.toISOString(),
    created_at: at.toISOString(),
  })

  /** Signs the next snapshot (when `targetsVersion` is given or the newest nears expiry) and timestamp. */
  async function signOnline(trx: Db, app: string, targetsVersion?: number): Promise<boolean> {
    const at = now()
    const half = (expires: string) => Date.parse(expires) - at.getTime() < timestampMs * (SNAPSHOT_LIFETIMES / 2)
    const lastSnapshot = await latestTufFile(trx, app, 'snapshot')
    const lastTimestamp = await latestTufFile(trx, app, 'timestamp')
    let snapshot = lastSnapshot
    if (targetsVersion !== undefined || (lastSnapshot && half(lastSnapshot.expires))) {
      const targets = targetsVersion ?? (await latestTufFile(trx, app, 'targets'))?.version
      if (targets === undefined) return true
      const version = (lastSnapshot?.version ?? 0) + 1
      const expires = new Date(at.getTime() + timestampMs * SNAPSHOT_LIFETIMES)
      const body = await signed(
        new Snapshot({
          version,
          specVersion: '1.0.31',
          expires: tufDate(expires),
          meta: { 'targets.json': new MetaFile({ version: targets }) },
        }),
      )
      snapshot = row(app, 'snapshot', version, body, expires, at)
      if (!(await insertTufFile(trx, snapshot))) return false
    }
    if (!snapshot) return true
    const bytes = new TextEncoder().encode(snapshot.body)
    const version = (lastTimestamp?.version ?? 0) + 1
    const expires = new Date(at.getTime() + timestampMs)
    const sha256 = toHex(await crypto.subtle.digest('SHA-256', bytes))
    const body = await signed(
      new Timestamp({
        version,
        specVersion: '1.0.31',
        expires: tufDate(expires),
        snapshotMeta: new MetaFile({ version: snapshot.version, length: bytes.length, hashes: { sha256 } }),
      }),
    )
    if (!(await insertTufFile(trx, row(app, 'timestamp', version, body, expires, at)))) return false
    await pruneTimestamps(trx, app, version)
    return true
  }

  async function currentRoot(trx: Db, app: string): Promise<Metadata<Root> | undefined> {
    const stored = await latestTufFile(trx, app, 'root')
    return stored && Metadata.fromJSON(MetadataKind.Root, JSON.parse(stored.body) as Record<string, never>)
  }

  function parse<K extends MetadataKind.Root | MetadataKind.Targets>(kind: K, body: unknown) {
    if (!isRecord(body) || !isRecord(body.signed))
      throw validationProblem([
        { pointer: '/signed', message: `a ${kind} metadata file needs "signed" and "signatures"` },
      ])
    if (body.signed._type !== kind)
      throw validationProblem([
        {
          pointer: '/signed/_type',
          message: `this path takes ${kind} metadata, not ${JSON.stringify(body.signed._type)}`,
        },
      ])
    try {
      // @tufjs/models checks each member's type itself and names the one at fault.
      return Metadata.fromJSON(kind as MetadataKind.Root, body as Record<string, never>) as unknown as Metadata<
        K extends MetadataKind.Root ? Root : Targets
      >
    } catch (error) {
      throw problemOf(error, '/signed', `not valid ${kind} metadata`)
    }
  }

  function notExpired(expires: string, kind: string) {
    if (Date.parse(expires) <= now().getTime())
      throw validationProblem([{ pointer: '/signed/expires', message: `the ${kind} metadata expired at ${expires}` }])
  }

  function verify(delegator: Metadata<Root>, role: string, md: Metadata<Root> | Metadata<Targets>, whose: string) {
    try {
      delegator.verifyDelegate(role, md)
    } catch (error) {
      const threshold = delegator.signed.roles[role]?.threshold ?? 0
      throw validationProblem([
        {
          pointer: '/signatures',
          message: `${role} version ${md.signed.version} is not signed by ${threshold} of the keys ${whose} gives the ${role} role (${error instanceof Error ? error.message : String(error)})`,
        },
      ])
    }
  }

  return {
    async onlineKey() {
      return (await onlineKey()).key
    },

    async file(app, name) {
      const match = FILE_NAME.exec(name)
      if (!match) return undefined
      const role = match[2] as TufRole
      if (role === 'timestamp') {
        if (match[1]) return undefined
        const last = await latestTufFile(db, app, 'timestamp')
        const halfGone = last && Date.parse(last.expires) - now().getTime() < timestampMs / 2
        if (halfGone) {
          await onlineKey()
          await db.transaction().execute((trx) => signOnline(trx, app))
        }
        return (await latestTufFile(db, app, 'timestamp'))?.body
      }
      const stored = match[1] ? await tufFile(db, app, role, Number(match[1])) : await latestTufFile(db, app, role)
      return stored?.body
    },

    async acceptRoot(trx, app, body) {
      const md = parse(MetadataKind.Root, body)
      const { key } = await onlineKey()
      const roles = md.signed.roles
      for (const role of ['snapshot', 'timestamp'] as const) {
        const r = roles[role]
        if (!r || r.threshold !== 1 || r.keyIDs.length !== 1 || r.keyIDs[0] !== key.keyid)
          throw validationProblem([
            {
              pointer: `/signed/roles/${role}`,
              message: `the ${role} role must hold exactly this server's online key ${key.keyid} with threshold 1 (GET online-key.json)`,
            },
          ])
      }
      if (roles.targets?.keyIDs.includes(key.keyid) || roles.root?.keyIDs.includes(key.keyid))
        throw validationProblem([
          {
            pointer: '/signed/roles',
            message: "the server's online key may sign snapshot and timestamp only, never root or targets",
          },
        ])
      if (!md.signed.consistentSnapshot)
        throw validationProblem([
          { pointer: '/signed/consistent_snapshot', message: 'Ferry serves consistent snapshots: set it to true' },
        ])
      notExpired(md.signed.expires, 'root')
      const current = await currentRoot(trx, app)
      const expected = (current?.signed.version ?? 0) + 1
      if (md.signed.version !== expected)
        throw conflict(
          `${app} is at root version ${expected - 1}: the next root must be version ${expected}, not ${md.signed.version}.`,
        )
      if (current) verify(current, 'root', md, `root version ${current.signed.version}`)
      verify(md, 'root', md, 'the new root')
      const at = now()
      const stored = row(app, 'root', md.signed.version, JSON.stringify(body), new Date(md.signed.expires), at)
      if (!(await insertTufFile(trx, stored)))
        throw conflict(`Root version ${md.signed.version} of ${app} was stored by another request first.`)
      return { version: md.signed.version }
    },

    async acceptTargets(trx, app, body) {
      const md = parse(MetadataKind.Targets, body)
      const root = await currentRoot(trx, app)
      if (!root) throw conflict(`${app} has no TUF root yet: store one first (ferry tuf init, then PUT root.json).`)
      verify(root, 'targets', md, `root version ${root.signed.version}`)
      notExpired(md.signed.expires, 'targets')
      if (md.signed.delegations)
        throw validationProblem([
          { pointer: '/signed/delegations', message: 'delegated targets roles are not served yet' },
        ])
      const last = await latestTufFile(trx, app, 'targets')
      const expected = (last?.version ?? 0) + 1
      if (md.signed.version !== expected)
        throw conflict(
          `${app} is at targets version ${expected - 1}: the next must be version ${expected}, not ${md.signed.version}.`,
        )
      const entries = Object.entries(md.signed.targets).map(([path, target]) => ({
        path,
        target,
        ids: TARGET_PATH.exec(path),
      }))
      const held = new Map(
        (
          await artifactsForTargets(
            trx,
            app,
            entries.flatMap((e) => (e.ids?.[2] ? [e.ids[2]] : [])),
          )
        ).map((a) => [a.id, a]),
      )
      const errors = []
      for (const { path, target, ids } of entries) {
        const pointer = `/signed/targets/${pointerPart(path)}`
        const found = ids && held.get(ids[2] ?? '')
        const artifact = found && found.version_id === ids[1] ? found : undefined
        if (!artifact) {
          errors.push({
            pointer,
            message: `names no artifact of ${app} on this server (a target's path is <versionId>/artifacts/<artifactId>/download)`,
          })
          continue
        }
        if (target.length !== artifact.size)
          errors.push({
            pointer: `${pointer}/length`,
            message: `is ${target.length}, but the artifact has ${artifact.size} bytes`,
          })
        if (!target.hashes.sha256) errors.push({ pointer: `${pointer}/hashes`, message: 'needs a sha256 hash' })
        for (const [algorithm, hash] of Object.entries(target.hashes)) {
          const ours = algorithm === 'sha256' ? artifact.sha256 : algorithm === 'sha512' ? artifact.sha512 : undefined
          if (ours === undefined)
            errors.push({
              pointer: `${pointer}/hashes/${pointerPart(algorithm)}`,
              message: 'only sha256 and sha512 are checked',
            })
          else if (hash !== ours)
            errors.push({
              pointer: `${pointer}/hashes/${algorithm}`,
              message: `does not match the artifact's ${algorithm} ${ours}`,
            })
        }
      }
      if (errors.length) throw validationProblem(errors)
      const at = now()
      const stored = row(app, 'targets', md.signed.version, JSON.stringify(body), new Date(md.signed.expires), at)
      if (!(await insertTufFile(trx, stored)) || !(await signOnline(trx, app, md.signed.version)))
        throw conflict(`Targets version ${md.signed.version} of ${app} was stored by another request first.`)
      return { version: md.signed.version, targets: Object.keys(md.signed.targets).length }
    },
  }
}
