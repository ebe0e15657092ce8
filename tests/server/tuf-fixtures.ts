/**
 * Test fixtures for signed metadata (TUF): a team's keys and signed root, an app with an uploaded
 * artifact and signed targets on a running server, a `tuf-js` client of it, and what an attacker
 * holding the server's database and secret can write (signed with the server's online key only).
 */
import assert from 'node:assert/strict'
import { createPrivateKey, sign } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Metadata, MetaFile, Signature, Snapshot, Timestamp, type Root, type Targets } from '@tufjs/models'
import { BaseFetcher, Updater } from 'tuf-js'
import { DownloadHTTPError } from 'tuf-js/dist/error.js'
import {
  buildRoot,
  expiresInDays,
  newKeyPem,
  nextTargets,
  publicKey,
  signWith,
  signingKey,
  tufDate,
  type PublicKey,
  type SigningKey,
  type TargetArtifact,
} from '../../lib/ferry-cli/tuf-metadata.ts'
import { ed25519Key, tufKeyId } from '../../contract/tuf-keys.ts'
import type { Db } from '../../server/core/storage.ts'
import { bearer, expectSpec, JWT_SECRET, jsonBody, uploadForm, type Fetch } from './helpers.ts'

export const newKey = () => signingKey(newKeyPem(), 'a test key')

export async function onlineKeyOf(f: Fetch, app: string): Promise<PublicKey> {
  const res = await f(`/v1/apps/${app}/tuf/online-key.json`)
  return publicKey(JSON.stringify(await expectSpec('getTufMetadata', res, 200)), 'online-key.json')
}

export interface SignedApp {
  app: string
  rootKeys: SigningKey[]
  release: SigningKey
  online: PublicKey
  /** The root a device ships with (version 1), as JSON text. */
  trustedRoot: string
  root: Metadata<Root>
  targets: Metadata<Targets>
  artifact: TargetArtifact & { blobPath: string }
}

/** Uploads `<app>-<version>.exe` and returns it as a target (its download path below `/versions/`). */
export async function uploadArtifact(f: Fetch, token: string, app: string, version: string, bytes: string) {
  const form = { channel: 'stable', platform: 'windows', arch: 'x64', published: 'true', version }
  const res = await f(
    `/v1/apps/${app}/versions`,
    bearer(token, { method: 'POST', body: uploadForm(form, [[`${app}-${version}.exe`, bytes]]) }),
  )
  assert.equal(res.status, 201, await res.clone().text())
  const v = (await res.json()) as {
    id: string
    artifacts: Array<{ id: string; size: number; sha256: string; sha512: string }>
  }
  const a = v.artifacts[0]
  assert.ok(a)
  return {
    versionId: v.id,
    artifactId: a.id,
    size: a.size,
    sha256: a.sha256,
    sha512: a.sha512,
    custom: { app, version },
    blobPath: `${v.id}/artifacts/${a.id}/download`,
  }
}

export async function postTuf(
  f: Fetch,
  token: string,
  app: string,
  file: 'root.json' | 'targets.json',
  md: Metadata<Root> | Metadata<Targets>,
) {
  return f(`/v1/apps/${app}/tuf/${file}`, jsonBody(md.toJSON(), token))
}

/** A public app with root v1 (root threshold `threshold` of `rootKeyCount`), one artifact and targets v1. */
export async function signedApp(
  f: Fetch,
  token: string,
  app: string,
  rootKeyCount = 1,
  threshold = 1,
): Promise<SignedApp> {
  const created = await f('/v1/apps', jsonBody({ slug: app, name: app }, token))
  assert.equal(created.status, 201, await created.text())
  const rootKeys = await Promise.all(Array.from({ length: rootKeyCount }, newKey))
  const release = await newKey()
  const online = await onlineKeyOf(f, app)
  const root = buildRoot({
    version: 1,
    expires: expiresInDays(365),
    root: { keys: rootKeys, threshold },
    targets: { keys: [release], threshold: 1 },
    online,
  })
  signWith(root, rootKeys)
  await expectSpec('publishTufMetadata', await postTuf(f, token, app, 'root.json', root), 200)
  const artifact = await uploadArtifact(f, token, app, '1.0.0', `installer of ${app} 1.0.0`)
  const targets = nextTargets(undefined, [artifact], expiresInDays(30))
  signWith(targets, [release])
  await expectSpec('publishTufMetadata', await postTuf(f, token, app, 'targets.json', targets), 200)
  return { app, rootKeys, release, online, trustedRoot: JSON.stringify(root.toJSON()), root, targets, artifact }
}

/** Serves one URL's bytes from `replace` instead of the server (a cache or mirror an attacker controls). */
export class ReplayingFetcher extends BaseFetcher {
  readonly replace = new Map<string, Uint8Array>()
  override async fetch(url: string): Promise<ReadableStream<Uint8Array<ArrayBuffer>>> {
    const name = new URL(url).pathname.split('/').pop() ?? ''
    const bytes = this.replace.get(name)
    if (bytes) return new Blob([new Uint8Array(bytes)]).stream()
    const res = await fetch(url)
    if (!res.ok || !res.body) {
      await res.body?.cancel()
      throw new DownloadHTTPError('Failed to download', res.status)
    }
    return res.body
  }
}

/** A `tuf-js` client that trusts `trustedRoot`, in a fresh folder; `close` removes it. */
export async function tufClient(base: string, app: string, trustedRoot: string, fetcher = new ReplayingFetcher()) {
  const dir = await mkdtemp(join(tmpdir(), 'ferry-tuf-client-'))
  await writeFile(join(dir, 'root.json'), trustedRoot)
  // One Updater refreshes once; a device that checks again starts another on the same folder.
  const open = () =>
    new Updater({
      metadataDir: dir,
      metadataBaseUrl: `${base}/v1/apps/${app}/tuf`,
      targetDir: dir,
      targetBaseUrl: `${base}/v1/apps/${app}/versions/`,
      fetcher,
      config: { prefixTargetsWithHash: false },
    })
  let updater = open()
  return {
    get updater() {
      return updater
    },
    /** The device checks again later, with the metadata it trusted so far. */
    restart() {
      updater = open()
    },
    fetcher,
    dir,
    /** Refreshes, finds `path` and downloads it; resolves to the verified bytes. */
    async download(path: string): Promise<string> {
      updater = open()
      await updater.refresh()
      const info = await updater.getTargetInfo(path)
      assert.ok(info, `the signed targets list ${path}`)
      const file = await updater.downloadTarget(info, join(dir, 'download.bin'))
      return readFile(file, 'utf8')
    },
    trustedRootVersion: async () =>
      (JSON.parse(await readFile(join(dir, 'root.json'), 'utf8')) as { signed: { version: number } }).signed.version,
    close: () => rm(dir, { recursive: true, force: true }),
  }
}

/** The server's online key as someone holding its database and `FERRY_JWT_SECRET` can unlock it. */
export async function stolenOnlineKey(db: Db): Promise<SigningKey> {
  const row = await db.selectFrom('tuf_online_keys').selectAll().executeTakeFirstOrThrow()
  const privateKey = createPrivateKey({ key: row.private_key, format: 'pem', passphrase: JWT_SECRET })
  const pub = ed25519Key(row.public_key)
  return { keyid: await tufKeyId(pub), public: pub, privateKey }
}

const signOnline = <T extends Snapshot | Timestamp | Targets | Root>(body: T, key: SigningKey) => {
  const md = new Metadata(body)
  md.sign((data) => new Signature({ keyID: key.keyid, sig: sign(null, data, key.privateKey).toString('hex') }))
  return JSON.stringify(md.toJSON())
}

/**
 * What a compromised server can publish: `file` (a targets or root file, stored as is) and, for
 * targets, a snapshot and timestamp signed with the online key that name it.
 */
export async function writeAsServer(
  db: Db,
  app: string,
  role: 'root' | 'targets',
  md: Metadata<Root> | Metadata<Targets>,
) {
  const key = await stolenOnlineKey(db)
  const at = new Date().toISOString()
  const latest = async (r: string) =>
    (
      await db
        .selectFrom('tuf_metadata')
        .select('version')
        .where('app_slug', '=', app)
        .where('role', '=', r)
        .orderBy('version', 'desc')
        .executeTakeFirst()
    )?.version ?? 0
  const insert = (r: string, version: number, body: string) =>
    db
      .insertInto('tuf_metadata')
      .values({ app_slug: app, role: r, version, body, expires: tufDate(expiresInDays(1)), created_at: at })
      .execute()
  await insert(role, md.signed.version, JSON.stringify(md.toJSON()))
  if (role === 'root') return
  const snapshotVersion = (await latest('snapshot')) + 1
  const snapshot = signOnline(
    new Snapshot({
      version: snapshotVersion,
      specVersion: '1.0.31',
      expires: tufDate(expiresInDays(1)),
      meta: { 'targets.json': new MetaFile({ version: md.signed.version }) },
    }),
    key,
  )
  await insert('snapshot', snapshotVersion, snapshot)
  const timestamp = signOnline(
    new Timestamp({
      version: (await latest('timestamp')) + 1,
      specVersion: '1.0.31',
      expires: tufDate(expiresInDays(1)),
      snapshotMeta: new MetaFile({ version: snapshotVersion }),
    }),
    key,
  )
  await insert('timestamp', (await latest('timestamp')) + 1, timestamp)
}

export { signWith, nextTargets, buildRoot, expiresInDays, signOnline }
