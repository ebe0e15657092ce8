/**
 * Versions in semver order through the database's sort key (`versions.version_key`), on SQLite
 * and, with `npm run test:unit:pg`, PostgreSQL: the stored order, the update check choosing among
 * many versions below and above the client, Squirrel.Windows' RELEASES, and the key written for
 * rows stored before the key existed.
 */
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import pg from 'pg'
import semver from 'semver'
import { dialectOf } from '../../server/storage/dialect.ts'
import { migrationsFor } from '../../server/storage/migrations/migrate.ts'
import { openPostgresDb } from '../../server/storage/drivers/postgres-node.ts'
import { openNodeDb } from '../../server/storage/drivers/sqlite-node.ts'
import type { Database } from '../../server/core/storage.ts'
import { rolloutBucket } from '../../server/updates/update-logic.ts'
import { versionKey } from '../../server/storage/releases/version-key.ts'
import { bearer, memoryApp, prepareUploadTeam, testDatabaseUrl, uploadForm } from './helpers.ts'

async function setup() {
  const m = await memoryApp()
  const token = await prepareUploadTeam(m.fetch, 'order-app')
  const upload = async (version: string, fields: Record<string, string> = {}, delta = false) => {
    const form = uploadForm(
      { version, channel: 'stable', platform: 'windows', arch: 'x64', published: 'true', ...fields },
      [
        [`order-app-${version}-full.nupkg`, `package ${version}`],
        ...(delta ? [[`order-app-${version}-delta.nupkg`, `delta ${version}`] as [string, string]] : []),
      ],
    )
    const res = await m.fetch('/v1/apps/order-app/versions', bearer(token, { method: 'POST', body: form }))
    assert.equal(res.status, 201, await res.clone().text())
  }
  /** The offered version and whether it is critical, or the status when nothing is offered. */
  const check = async (current: string) => {
    const res = await m.fetch(
      `/v1/apps/order-app/update?version=${encodeURIComponent(current)}&platform=windows&arch=x64&format=ferry`,
    )
    if (res.status !== 200) return res.status
    const { version, critical } = (await res.json()) as { version: string; critical: boolean }
    return { version, critical }
  }
  return { ...m, token, upload, check }
}

test('the database orders versions by key as semver does (bytewise: COLLATE "C" on PostgreSQL)', async () => {
  const t = await setup()
  const versions = [
    '1.10.0',
    '1.0.0-beta.11',
    '1.0.0',
    '1.0.0-Beta',
    '1.0.0-alpha',
    '1.0.0-beta.2',
    '1.0.0-alpha.1',
    '1.9.0',
    '1.0.0-0A',
    '1.0.0-alpha-1',
    '1.0.0-alpha.beta',
    `${Number.MAX_SAFE_INTEGER}.0.0`,
    '1.0.0-rc.1',
    '10.0.0',
    '2.0.0',
    '1.0.0-a',
    '1.0.0-9007199254740993',
  ]
  for (const v of versions) await t.upload(v)
  const rows = await t.db.selectFrom('versions').select(['version', 'version_key']).orderBy('version_key').execute()
  assert.deepEqual(
    rows.map((r) => r.version),
    [...versions].sort(semver.compare),
  )
  assert.ok(rows.every((r) => r.version_key === versionKey(r.version)))
  // The listing pages through them newest first, 4 at a time.
  const listed: string[] = []
  let cursor: string | null = ''
  while (cursor !== null) {
    const res = await t.fetch(
      `/v1/apps/order-app/versions?limit=4${cursor ? `&cursor=${cursor}` : ''}`,
      bearer(t.token),
    )
    const body = (await res.json()) as { items: Array<{ version: string }>; nextCursor: string | null }
    listed.push(...body.items.map((v) => v.version))
    cursor = body.nextCursor
  }
  assert.deepEqual(listed, [...versions].sort(semver.rcompare))
  if (dialectOf(t.db) === 'postgres') {
    const column = await sql<{
      collation_name: string
    }>`SELECT collation_name FROM information_schema.columns WHERE table_name = 'versions' AND column_name = 'version_key'`.execute(
      t.db,
    )
    assert.equal(column.rows[0]?.collation_name, 'C')
  }
})

test('update check: with many versions below and above the client, the candidates are those above it', async () => {
  const t = await setup()
  // Below the client: critical ones (that must not make the offer critical) and string-wise larger ones.
  for (let i = 0; i < 25; i++) await t.upload(`1.${i}.0`, { critical: String(i % 3 === 0) })
  await t.upload('2.0.0-beta.1', { critical: 'true' })
  await t.upload('2.0.0-beta.2', { critical: 'true', intermediate: 'true' })
  await t.upload('2.0.0-beta.2+build.7')
  // Above it: beta.10 sorts below beta.2 as text; it gates everything above it.
  await t.upload('2.0.0-beta.10', { intermediate: 'true' })
  await t.upload('2.0.0-rc.1', { critical: 'true' })
  for (let i = 0; i < 25; i++) await t.upload(`2.${i + 1}.0`)
  assert.deepEqual(await t.check('2.0.0-beta.2'), { version: '2.0.0-beta.10', critical: false })
  assert.deepEqual(await t.check('2.0.0-beta.10'), { version: '2.25.0', critical: true })
  assert.deepEqual(await t.check('2.0.0'), { version: '2.25.0', critical: false })
  assert.equal(await t.check('2.25.0'), 204)
  assert.equal(await t.check('3.0.0-alpha'), 204)
  assert.deepEqual(await t.check('1.3.0'), { version: '2.0.0-beta.2', critical: true })

  // RELEASES lists every release up to the one offered, below the client's version too.
  const releases = async (query: string) =>
    (await (await t.fetch(`/v1/apps/order-app/squirrel/stable/x64/RELEASES${query}`)).text())
      .trim()
      .split('\n')
      .map((line) => /order-app-(\S+)-full\.nupkg/.exec(line)?.[1])
  const all = await releases('')
  // Squirrel.Windows reads SemVer 1.0 from a name: the dotted prereleases and +build.7 are left out.
  assert.equal(all.length, 50)
  assert.deepEqual(
    all.filter((v) => v?.includes('-') || v?.includes('+')),
    [],
  )
  assert.deepEqual(
    all,
    [...all].sort((a, b) => semver.compare(a ?? '', b ?? '')),
  )
  assert.deepEqual(
    await releases('?localVersion=2.0.0-beta.2'),
    all.filter((v) => semver.lte(v ?? '', '2.0.0-beta.10')),
  )
  assert.deepEqual(await releases('?localVersion=2.25.0'), all)
})

test('update check far behind (more releases above than one query reads): only the reachable range is read, and a critical release skipped below it still makes the offer critical', async () => {
  const t = await setup()
  await t.upload('1.1.0', { critical: 'true' })
  for (let i = 2; i < 80; i++) await t.upload(`1.${i}.0`, {}, true)
  await t.upload('1.80.0', { rolloutPercentage: '50' })
  await t.upload('1.81.0', { rolloutPercentage: '0' })
  await t.upload('1.82.0', { intermediate: 'true', rolloutPercentage: '50' })
  await t.upload('1.83.0')
  const inRollout = async (device: string, version: string) => (await rolloutBucket(device, version)) < 50
  const deviceIn = await deviceWhere(async (d) => (await inRollout(d, '1.80.0')) && (await inRollout(d, '1.82.0')))
  const deviceOut = await deviceWhere(async (d) => !(await inRollout(d, '1.80.0')) && !(await inRollout(d, '1.82.0')))
  const check = async (current: string, device: string) => {
    const res = await t.fetch(`/v1/apps/order-app/update?version=${current}&platform=windows&arch=x64&format=ferry`, {
      headers: { 'x-ferry-device-id': device },
    })
    const { version, critical } = (await res.json()) as { version: string; critical: boolean }
    return { version, critical }
  }
  // The intermediate 1.82.0 caps what 1.0.0 and 1.1.0 may get; 1.79.0 is the newest full release below it.
  assert.deepEqual(await check('1.0.0', deviceIn), { version: '1.82.0', critical: true })
  assert.deepEqual(
    await check('1.0.0', deviceOut),
    { version: '1.79.0', critical: true },
    '1.1.0 lies below every release read, and is critical',
  )
  assert.deepEqual(await check('1.1.0', deviceOut), { version: '1.79.0', critical: false })
  assert.deepEqual(await check('1.82.0', deviceOut), { version: '1.83.0', critical: false })
  // Near the top (few releases above): the same answers from the one-query path.
  assert.deepEqual(await check('1.78.0', deviceIn), { version: '1.82.0', critical: false })
  assert.deepEqual(await check('1.78.0', deviceOut), { version: '1.79.0', critical: false })
  // Velopack chains deltas from the client's version: far behind, the releases in between are not
  // read, so the feed lists the full package only; near the top, the deltas too.
  const velopack = async (current: string) => {
    const res = await t.fetch(
      `/v1/apps/order-app/velopack/stable/windows/x64/releases.win.json?localVersion=${current}&stagingId=${deviceOut}`,
    )
    return ((await res.json()) as { Assets: Array<{ FileName: string }> }).Assets.map((a) => a.FileName)
  }
  assert.deepEqual(await velopack('1.0.0'), ['order-app-1.79.0-full.nupkg'])
  assert.deepEqual(await velopack('1.77.0'), [
    'order-app-1.78.0-delta.nupkg',
    'order-app-1.79.0-delta.nupkg',
    'order-app-1.79.0-full.nupkg',
  ])
})

/** A device id for which `wanted` holds. */
async function deviceWhere(wanted: (device: string) => Promise<boolean>): Promise<string> {
  for (let i = 0; ; i++) if (await wanted(`device-${i}`)) return `device-${i}`
}

test('migration 0005 writes the key of the versions an older Ferry stored, none for one semver refuses', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ferry-key-'))
  try {
    const file = join(dir, 'ferry.db')
    const url = await testDatabaseUrl()
    const old = new Kysely<Database>({
      dialect: url
        ? new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) })
        : new SqliteDialect({ database: new BetterSqlite3(file) }),
    })
    const migrations = migrationsFor(url ? 'postgres' : 'sqlite')
    const migrator = new Migrator({ db: old, provider: { getMigrations: async () => migrations } })
    assert.equal((await migrator.migrateTo('0003-artifact-position')).error, undefined)
    const now = new Date().toISOString()
    await old.insertInto('teams').values({ id: 't', name: 'T', created_at: now }).execute()
    for (const [table, extra] of [
      ['channels', { description: '' }],
      ['platforms', { updater: 'ferry' }],
      ['archs', {}],
    ] as const) {
      await old
        .insertInto(table)
        .values({ id: table, team_id: 't', name: table, created_at: now, ...extra })
        .execute()
    }
    await old
      .insertInto('apps')
      .values({ slug: 'a', team_id: 't', name: 'A', description: '', private: 0, created_at: now, updated_at: now })
      .execute()
    const stored = ['1.10.0', '1.2.0-rc.1', '99999999999999999.0.0', '1.2.0']
    for (const [i, version] of stored.entries()) {
      await sql`INSERT INTO versions (id, app_slug, version, channel_id, platform_id, arch_id, changelog, published, critical, intermediate, rollout_percentage, created_at)
        VALUES (${`v${i}`}, 'a', ${version}, 'channels', 'platforms', 'archs', '', 1, 0, 0, 100, ${now})`.execute(old)
    }
    await old.destroy()
    const db = url ? await openPostgresDb(url, { poolSize: 1, allowExitOnIdle: true }) : await openNodeDb(file)
    const rows = await db.selectFrom('versions').select(['version', 'version_key']).orderBy('seq').execute()
    assert.deepEqual(
      rows,
      stored.map((version) => ({ version, version_key: versionKey(version) })),
    )
    assert.equal(rows[2]?.version_key, null)
    await db.destroy()
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})
