// backend-matrix: sqlite-only — the SQLite file and the blob directory; PostgreSQL's backup is in tests/server/ferry-data.test.ts
/**
 * `npm run backup` while the server runs: the copy, started as a server of its own, serves every
 * version it lists with intact bytes, even with uploads going on during the backup; a version
 * deleted between the database snapshot and the file copy is left out rather than half kept;
 * a lost file and a non-empty target are refused with a message saying why.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import BetterSqlite3 from 'better-sqlite3'
import { BackupError, backupDataDir } from '../../server/storage/drivers/backup-node.ts'
import { bearer, httpFetch, startTestServer, uploadForm, withUploadTeam, type Fetch } from './helpers.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex')

const team = withUploadTeam('harbor', 16 * 1024 * 1024, { blobs: { kind: 'fs' }, databaseUrl: undefined })
const { f } = team
let work: string
let version = 0

before(() => {
  work = mkdtempSync(join(tmpdir(), 'ferry-backup-'))
})
after(() => rmSync(work, { recursive: true, force: true }))

async function upload(): Promise<string> {
  const v = `1.0.${++version}`
  const body = uploadForm({ version: v, channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }, [
    [`Harbor Setup ${v}.exe`, randomBytes(256 * 1024)],
  ])
  const res = await f('/v1/apps/harbor/versions', bearer(team.token, { method: 'POST', body }))
  assert.equal(res.status, 201, await res.text())
  return v
}

interface Listed {
  version: string
  artifacts: Array<{ id: string; sha256: string; fileName: string }>
  id: string
}

async function listed(fetch: Fetch): Promise<Listed[]> {
  const res = await fetch('/v1/apps/harbor/versions?limit=100', bearer(team.token))
  assert.equal(res.status, 200)
  const body: { items: Listed[] } = await res.json()
  return body.items
}

/** Starts a server on `dir` and checks every listed artifact downloads with its SHA-256; returns the versions. */
async function restoreAndCheck(dir: string): Promise<string[]> {
  const restored = await startTestServer(16 * 1024 * 1024, {
    dataDir: dir,
    blobs: { kind: 'fs' },
    databaseUrl: undefined,
  })
  try {
    const rf = httpFetch(restored.url)
    const versions = await listed(rf)
    for (const v of versions) {
      for (const a of v.artifacts) {
        const res = await rf(`/v1/apps/harbor/versions/${v.id}/artifacts/${a.id}/download`, bearer(team.token))
        assert.equal(res.status, 200, `${v.version} ${a.fileName}`)
        assert.equal(
          sha256(new Uint8Array(await res.arrayBuffer())),
          a.sha256,
          `${v.version} ${a.fileName} downloads intact from the copy`,
        )
      }
    }
    return versions.map((v) => v.version).sort()
  } finally {
    await restored.stop()
  }
}

test('a backup taken during uploads restores into a server that serves every version it lists', async () => {
  for (let i = 0; i < 3; i++) await upload()
  let uploading = true
  const uploads = (async () => {
    let n = 0
    while (uploading || n < 2) {
      await upload()
      n++
    }
    return n
  })()
  const target = join(work, 'during-uploads')
  const report = await backupDataDir(team.server.dataDir, target)
  uploading = false
  const during = await uploads

  const restored = await restoreAndCheck(target)
  assert.ok(restored.length >= 3, `the copy holds the versions from before the backup (${restored.join(', ')})`)
  assert.equal(report.artifacts, restored.length)
  assert.equal(report.bytes, restored.length * 256 * 1024)
  assert.deepEqual(report.droppedVersions, [])
  assert.ok(during >= 2)
  // Files of uploads that finished after the snapshot are not copied: the copy holds what it lists.
  assert.equal(readdirSync(join(target, 'blobs')).filter((name) => name !== '.tmp').length, restored.length)
  // The whole database is copied, so the audit log comes along: the signup and the uploads before the backup.
  const copy = new BetterSqlite3(join(target, 'ferry.db'), { readonly: true })
  try {
    const actions = copy.prepare('SELECT action, count(*) AS n FROM audit_log GROUP BY action').all() as Array<{
      action: string
      n: number
    }>
    const count = (action: string) => actions.find((a) => a.action === action)?.n ?? 0
    assert.equal(count('team.create'), 1)
    assert.ok(
      count('version.upload') >= 3,
      `the copy's audit log lists the uploads before the backup (${JSON.stringify(actions)})`,
    )
  } finally {
    copy.close()
  }
})

test('a version deleted between the snapshot and the file copy is left out of the copy', async () => {
  const [doomed] = (await listed(f)).filter((v) => v.version === '1.0.1')
  assert.ok(doomed)
  const report = await backupDataDir(team.server.dataDir, join(work, 'with-delete'), {
    async afterSnapshot() {
      const res = await f(`/v1/apps/harbor/versions/${doomed.id}`, bearer(team.token, { method: 'DELETE' }))
      assert.equal(res.status, 204)
    },
  })
  assert.deepEqual(report.droppedVersions, [doomed.id])
  const restored = await restoreAndCheck(join(work, 'with-delete'))
  assert.ok(!restored.includes('1.0.1'))
  assert.deepEqual(restored, (await listed(f)).map((v) => v.version).sort())
})

test('a file the server still lists but lacks fails the backup, naming it', async () => {
  const v = await upload()
  const [row] = (await listed(f)).filter((x) => x.version === v)
  assert.ok(row)
  const live = new BetterSqlite3(join(team.server.dataDir, 'ferry.db'), { readonly: true })
  const lost = live.prepare('SELECT blob_key FROM artifacts WHERE id = ?').pluck().get(row.artifacts[0]?.id)
  live.close()
  assert.ok(typeof lost === 'string')
  unlinkSync(join(team.server.dataDir, 'blobs', lost))
  await assert.rejects(
    backupDataDir(team.server.dataDir, join(work, 'lost-file')),
    (error: unknown) =>
      error instanceof BackupError &&
      /is missing, but the server still lists it/.test(error.message) &&
      error.message.includes(lost),
  )
  const res = await f(`/v1/apps/harbor/versions/${row.id}`, bearer(team.token, { method: 'DELETE' }))
  assert.equal(res.status, 204)
})

function backupCommand(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'backup.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString()
  })
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString()
  })
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })))
}

test('npm run backup: reports what it copied; refuses a non-empty folder; names pg_dump when it fails', async () => {
  const env = { FERRY_DATA_DIR: team.server.dataDir }
  const ok = await backupCommand([join(work, 'cli')], env)
  assert.equal(ok.code, 0, ok.stderr)
  assert.match(ok.stdout, /database copied from .*ferry\.db \(integrity ok\)/)
  assert.match(ok.stdout, /\d+ artifact files copied, .* each matching its SHA-256/)

  writeFileSync(join(work, 'cli', 'extra'), 'x')
  const refused = await backupCommand([join(work, 'cli')], env)
  assert.equal(refused.code, 1)
  assert.match(refused.stderr, /is not empty: back up into a new folder/)

  const pg = await backupCommand([join(work, 'pg')], {
    ...env,
    FERRY_DATABASE_URL: 'postgres://ferry@127.0.0.1:1/ferry',
    FERRY_SIGNUP_KEY: 'k'.repeat(16),
    FERRY_JWT_SECRET: 's'.repeat(32),
  })
  assert.equal(pg.code, 1, pg.stderr)
  assert.match(pg.stderr, /^ferry: backup: pg_dump failed: .*127\.0\.0\.1/m)

  const usage = await backupCommand([], env)
  assert.equal(usage.code, 2)
  assert.match(usage.stderr, /^ferry: backup: name one new folder to write \(see ferry backup --help\)/)
})
