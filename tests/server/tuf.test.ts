/**
 * Signed update metadata (TUF) against a real Ferry, with `tuf-js`'s Updater as the device: it
 * downloads and verifies a published artifact, and refuses what a compromised server, bucket or
 * cache could serve instead (each attack written the way an attacker holding that part would).
 */
import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, test } from 'node:test'
import {
  buildRoot,
  expiresInDays,
  newKey,
  nextTargets,
  postTuf,
  signWith,
  signedApp,
  tufClient,
  uploadArtifact,
  writeAsServer,
  ReplayingFetcher,
} from './tuf-fixtures.ts'
import { rootWithKey } from '../../lib/ferry-cli/tuf-metadata.ts'
import { expectProblem, expectSpec, openServerDb, withUploadTeam } from './helpers.ts'

/** Short enough for a test to outlive a timestamp. */
const TIMESTAMP_SECONDS = 3
const team = withUploadTeam('tuf-base', undefined, { tufTimestampSeconds: TIMESTAMP_SECONDS })
let apps = 0
const nextApp = () => `tuf-app-${++apps}`

test('a tuf-js client downloads and verifies a published artifact', async () => {
  const { f, token, server } = team
  const s = await signedApp(f, token, nextApp())
  const client = await tufClient(server.url, s.app, s.trustedRoot)
  try {
    assert.equal(await client.download(s.artifact.blobPath), `installer of ${s.app} 1.0.0`)
    const base = `/v1/apps/${s.app}/tuf`
    await expectSpec('getTufMetadata', await f(`${base}/1.root.json`), 200)
    await expectSpec('getTufMetadata', await f(`${base}/1.targets.json`), 200)
    const ts = await f(`${base}/timestamp.json`)
    assert.equal(ts.headers.get('cache-control'), 'no-cache')
    await expectSpec('getTufMetadata', ts, 200)
    await expectSpec('getTufMetadata', await f(`${base}/9.snapshot.json`), 404)
    await expectSpec('getTufMetadata', await f(`${base}/0.root.json`), 400)
  } finally {
    await client.close()
  }
})

test('the server refuses targets naming bytes it does not hold, signed by the wrong key, or out of order', async () => {
  const { f, token } = team
  const s = await signedApp(f, token, nextApp())
  const other = await uploadArtifact(f, token, s.app, '1.1.0', `installer of ${s.app} 1.1.0`)
  const post = (md: ReturnType<typeof nextTargets>) => postTuf(f, token, s.app, 'targets.json', md)
  const path = other.blobPath.replaceAll('/', '~1')

  const longer = nextTargets(s.targets, [{ ...other, size: other.size + 1 }], expiresInDays(30))
  signWith(longer, [s.release])
  await expectProblem(await post(longer), 400, 'validation', `/signed/targets/${path}/length`)

  const swapped = nextTargets(
    s.targets,
    [{ ...other, sha256: s.artifact.sha256, sha512: undefined }],
    expiresInDays(30),
  )
  signWith(swapped, [s.release])
  await expectProblem(await post(swapped), 400, 'validation', `/signed/targets/${path}/hashes/sha256`)

  const unknown = nextTargets(s.targets, [{ ...other, artifactId: 'art_0000000000000000' }], expiresInDays(30))
  signWith(unknown, [s.release])
  await expectProblem(await post(unknown), 400, 'validation')

  const byRootKey = nextTargets(s.targets, [other], expiresInDays(30))
  signWith(byRootKey, s.rootKeys)
  await expectProblem(await post(byRootKey), 400, 'validation', '/signatures')

  const skipped = nextTargets(s.targets, [other], expiresInDays(30))
  const v3 = nextTargets(skipped, [], expiresInDays(30))
  signWith(v3, [s.release])
  await expectSpec('publishTufMetadata', await post(v3), 409)

  const good = nextTargets(s.targets, [other], expiresInDays(30))
  signWith(good, [s.release])
  assert.deepEqual(await expectSpec('publishTufMetadata', await post(good), 200), {
    role: 'targets',
    version: 2,
    targets: 2,
  })
})

test('refuses an artifact whose bytes were swapped in storage', async () => {
  const { f, token, server } = team
  const s = await signedApp(f, token, nextApp())
  const db = await openServerDb(server)
  const row = await db
    .selectFrom('artifacts')
    .select(['blob_key', 'size'])
    .where('id', '=', s.artifact.artifactId)
    .executeTakeFirstOrThrow()
  await db.destroy()
  // Same length, other bytes: only the signed hash tells them apart.
  const evil = new TextEncoder().encode(`installer of ${s.app} 6.6.6`)
  assert.equal(evil.length, row.size)
  await server.blobs.put(row.blob_key, evil)
  const client = await tufClient(server.url, s.app, s.trustedRoot)
  try {
    await assert.rejects(client.download(s.artifact.blobPath), /hash|mismatch/i)
  } finally {
    await client.close()
  }
})

test('refuses a targets file the server wrote without the release key', async () => {
  const { f, token, server } = team
  const s = await signedApp(f, token, nextApp())
  const added = await uploadArtifact(f, token, s.app, '6.6.6', `backdoor of ${s.app}`)
  const forged = nextTargets(s.targets, [added], expiresInDays(30))
  const db = await openServerDb(server)
  try {
    // The server's own key is all a compromised server holds: it signs targets, snapshot and timestamp with it.
    const { stolenOnlineKey } = await import('./tuf-fixtures.ts')
    signWith(forged, [await stolenOnlineKey(db)])
    await writeAsServer(db, s.app, 'targets', forged)
  } finally {
    await db.destroy()
  }
  const client = await tufClient(server.url, s.app, s.trustedRoot)
  try {
    await assert.rejects(client.updater.refresh(), /targets|signature|threshold/i)
  } finally {
    await client.close()
  }
})

test('refuses a rollback to an older timestamp', async () => {
  const { f, token, server } = team
  const s = await signedApp(f, token, nextApp())
  const old = new Uint8Array(await (await f(`/v1/apps/${s.app}/tuf/timestamp.json`)).arrayBuffer())
  const added = await uploadArtifact(f, token, s.app, '1.1.0', `installer of ${s.app} 1.1.0`)
  const v2 = nextTargets(s.targets, [added], expiresInDays(30))
  signWith(v2, [s.release])
  await expectSpec('publishTufMetadata', await postTuf(f, token, s.app, 'targets.json', v2), 200)
  const client = await tufClient(server.url, s.app, s.trustedRoot)
  try {
    assert.equal(await client.download(added.blobPath), `installer of ${s.app} 1.1.0`)
    // A mirror or cache now answers the older, validly signed timestamp.
    client.fetcher.replace.set('timestamp.json', old)
    client.restart()
    await assert.rejects(client.updater.refresh(), /New timestamp version \d+ is less than current version \d+/)
  } finally {
    await client.close()
  }
})

test('refuses a timestamp frozen past its expiry; the server signs a fresh one', async () => {
  const { f, token, server } = team
  const s = await signedApp(f, token, nextApp())
  const frozen = await (await f(`/v1/apps/${s.app}/tuf/timestamp.json`)).text()
  const expires = Date.parse((JSON.parse(frozen) as { signed: { expires: string } }).signed.expires)
  assert.ok(expires - Date.now() <= TIMESTAMP_SECONDS * 1000, 'the timestamp lives FERRY_TUF_TIMESTAMP_SECONDS')
  // The event waited for is the timestamp's own expiry.
  await sleep(Math.max(0, expires - Date.now()) + 50)
  const fetcher = new ReplayingFetcher()
  fetcher.replace.set('timestamp.json', new TextEncoder().encode(frozen))
  const client = await tufClient(server.url, s.app, s.trustedRoot, fetcher)
  const fresh = await tufClient(server.url, s.app, s.trustedRoot)
  try {
    await assert.rejects(client.updater.refresh(), /expired/i)
    assert.equal(await fresh.download(s.artifact.blobPath), `installer of ${s.app} 1.0.0`)
  } finally {
    await client.close()
    await fresh.close()
  }
})

describe('root', () => {
  test('the server refuses a root signed by fewer keys than its threshold', async () => {
    const { f, token } = team
    const s = await signedApp(f, token, nextApp(), 2, 2)
    const next = rootWithKey(s.root, 'targets', await newKey())
    signWith(next, [s.rootKeys[0]!])
    await expectProblem(await postTuf(f, token, s.app, 'root.json', next), 400, 'validation', '/signatures')
    const first = buildRoot({
      version: 1,
      expires: expiresInDays(365),
      root: { keys: s.rootKeys, threshold: 2 },
      targets: { keys: [s.release], threshold: 1 },
      online: s.online,
    })
    signWith(first, [s.rootKeys[1]!])
    const created = await f('/v1/apps', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ slug: `${s.app}-b`, name: 'b' }),
    })
    assert.equal(created.status, 201)
    await expectProblem(await postTuf(f, token, `${s.app}-b`, 'root.json', first), 400, 'validation', '/signatures')
    // A root that lets the server's own key sign targets would let a compromised server add versions.
    const serverSigns = buildRoot({
      version: 1,
      expires: expiresInDays(365),
      root: { keys: s.rootKeys, threshold: 2 },
      targets: { keys: [s.release, s.online], threshold: 1 },
      online: s.online,
    })
    signWith(serverSigns, s.rootKeys)
    await expectProblem(
      await postTuf(f, token, `${s.app}-b`, 'root.json', serverSigns),
      400,
      'validation',
      '/signed/roles',
    )
  })

  test('a client refuses a root under its threshold that a compromised server serves', async () => {
    const { f, token, server } = team
    const s = await signedApp(f, token, nextApp(), 2, 2)
    const next = rootWithKey(s.root, 'targets', await newKey())
    signWith(next, [s.rootKeys[0]!])
    const db = await openServerDb(server)
    try {
      await writeAsServer(db, s.app, 'root', next)
    } finally {
      await db.destroy()
    }
    const client = await tufClient(server.url, s.app, s.trustedRoot)
    try {
      await assert.rejects(client.updater.refresh(), /root|signature|threshold/i)
      assert.equal(await client.trustedRootVersion(), 1)
    } finally {
      await client.close()
    }
  })

  test('a client follows a root rotation to a new root key', async () => {
    const { f, token, server } = team
    const s = await signedApp(f, token, nextApp())
    const added = await newKey()
    const next = rootWithKey(s.root, 'root', added, 2)
    signWith(next, [...s.rootKeys, added])
    await expectSpec('publishTufMetadata', await postTuf(f, token, s.app, 'root.json', next), 200)
    const client = await tufClient(server.url, s.app, s.trustedRoot)
    try {
      assert.equal(await client.download(s.artifact.blobPath), `installer of ${s.app} 1.0.0`)
      assert.equal(await client.trustedRootVersion(), 2)
    } finally {
      await client.close()
    }
  })
})
