/**
 * `ferry db query` and `ferry backup` run as a user runs them (the `ferry` bin, the server's
 * FERRY_* variables) against a running server's database, SQLite or (under `npm run test:unit:pg`)
 * PostgreSQL: a query prints rows as a table or JSON Lines; a write, or a write smuggled after a
 * read, is refused by the database and changes nothing; the backup restores into a server that
 * serves what the original did.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import {
  bearer,
  httpFetch,
  JWT_SECRET,
  SIGNUP_KEY,
  startTestServer,
  testDatabaseUrl,
  uploadOneFile,
  withUploadTeam,
} from './helpers.ts'
import { blobEnvironment } from './server-process.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const team = withUploadTeam('harbor', undefined, {}, async (t) => {
  await uploadOneFile(t.f, t.token, 'harbor', 'Harbor Setup 1.0.0.exe', 'harbor 1.0.0 installer')
})
const work = mkdtempSync(join(tmpdir(), 'ferry-data-'))
after(() => rmSync(work, { recursive: true, force: true }))

/** `ferry <args>` from `work`, configured like the test server. */
function ferry(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { server } = team
  const env = {
    ...process.env,
    FERRY_DATA_DIR: server.dataDir,
    FERRY_SIGNUP_KEY: SIGNUP_KEY,
    FERRY_JWT_SECRET: JWT_SECRET,
    ...(server.databaseUrl ? { FERRY_DATABASE_URL: server.databaseUrl } : {}),
    ...blobEnvironment(server.blobLocation),
  }
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'ferry-bin.mjs'), ...args], {
    cwd: work,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((done) => child.once('close', (code) => done({ code, stdout, stderr })))
}

const APPS = 'SELECT slug, name FROM apps ORDER BY slug'

test('ferry db query prints rows as a table, or one JSON object per row with --json', async () => {
  const shown = await ferry(['db', 'query', APPS])
  assert.equal(shown.code, 0, shown.stderr)
  assert.deepEqual(shown.stdout.split('\n'), ['slug    name', 'harbor  harbor', ''])
  assert.equal(shown.stderr, '(1 row)\n')

  const json = await ferry([
    'db',
    'query',
    '--json',
    'SELECT v.version, count(a.id) AS files, min(a.size) AS bytes FROM versions v JOIN artifacts a ON a.version_id = v.id GROUP BY v.version',
  ])
  assert.equal(json.code, 0, json.stderr)
  assert.deepEqual(
    json.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown),
    [{ version: '1.0.0', files: 1, bytes: 22 }],
  )
})

test('ferry db query: the database refuses a write, alone or after a read, and nothing changes', async () => {
  for (const statement of [
    "UPDATE apps SET name = 'changed'",
    'DELETE FROM artifacts',
    "SELECT 1; UPDATE apps SET name = 'changed'",
    'CREATE TABLE intruder (id integer)',
  ]) {
    const refused = await ferry(['db', 'query', statement])
    assert.equal(refused.code, 1, `${statement}: ${refused.stdout}${refused.stderr}`)
    assert.match(refused.stderr, /^ferry: db query: (SQLite|PostgreSQL) refused the statement: /, statement)
  }
  const still = await ferry([
    'db',
    'query',
    '--json',
    `SELECT (${APPS.replace('slug, name', 'name')} LIMIT 1) AS name, (SELECT count(*) FROM artifacts) AS artifacts`,
  ])
  assert.equal(still.code, 0, still.stderr)
  assert.deepEqual(JSON.parse(still.stdout), { name: 'harbor', artifacts: 1 })

  const usage = await ferry(['db', 'query'])
  assert.equal(usage.code, 2)
  assert.match(usage.stderr, /^ferry: db query: give one SQL statement/)
})

test('ferry backup writes a copy that a server started on it serves', async () => {
  const folder = join(work, 'backup')
  const backup = await ferry(['backup', 'backup'])
  assert.equal(backup.code, 0, backup.stderr)
  const { server } = team
  let restored
  if (server.databaseUrl) {
    assert.match(backup.stdout, /^backup: PostgreSQL database dumped into .*ferry\.dump \(pg_dump, custom format\)$/m)
    const fresh = await testDatabaseUrl()
    assert.ok(fresh)
    const pgRestore = spawn('pg_restore', ['--no-owner', `--dbname=${fresh}`, join(folder, 'ferry.dump')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    pgRestore.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    assert.equal(await new Promise((done) => pgRestore.once('close', done)), 0, stderr)
    restored = await startTestServer(undefined, { databaseUrl: fresh, blobs: server.blobLocation })
  } else {
    assert.match(backup.stdout, /^backup: database copied from .*ferry\.db \(integrity ok\)$/m)
    assert.match(backup.stdout, /^backup: 1 artifact files copied, 22 B, each matching its SHA-256$/m)
    restored = await startTestServer(undefined, { dataDir: folder, databaseUrl: undefined, blobs: { kind: 'fs' } })
  }
  try {
    const listed = await httpFetch(restored.url)('/v1/apps/harbor/versions', bearer(team.token))
    assert.equal(listed.status, 200)
    const { items } = (await listed.json()) as { items: Array<{ version: string }> }
    assert.deepEqual(
      items.map((v) => v.version),
      ['1.0.0'],
    )
  } finally {
    await restored.stop()
  }

  const again = await ferry(['backup', 'backup'])
  assert.equal(again.code, 1)
  assert.match(again.stderr, /^ferry: backup: .*backup is not empty: back up into a new folder/)
  assert.ok(existsSync(folder))
})
