/**
 * @module A consistent copy of Ferry's state while the server runs (`ferry backup`): the
 * database through SQLite's online backup, then every artifact file the copy lists (hashed as
 * it is copied and checked against the stored SHA-256), then the secret files. Uploads write
 * files before rows and deletions remove rows before files, so a file missing after the snapshot
 * belongs to a version deleted meanwhile: the copy drops that version too and stays whole.
 * On PostgreSQL the database is `pg_dump`'s snapshot; files in object storage are the bucket's.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { copyFile, mkdir, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import BetterSqlite3 from 'better-sqlite3'

export const SECRET_FILES = ['signup-key', 'jwt-secret'] as const

export interface BackupReport {
  artifacts: number
  bytes: number
  /** Versions deleted on the server while the backup ran, left out of the copy. */
  droppedVersions: string[]
  secrets: string[]
}

export class BackupError extends Error {}

interface ArtifactRow {
  blob_key: string
  size: number
  sha256: string
  version_id: string
}

async function isEmptyOrAbsent(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return true
    throw error
  }
}

/** Copies `from` to `to`, returning its SHA-256 (hex) and size. */
async function copyHashing(from: string, to: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256')
  let size = 0
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk)
      size += chunk.byteLength
      done(null, chunk)
    },
  })
  await pipeline(createReadStream(from), tap, createWriteStream(to, { flags: 'wx', mode: 0o600 }))
  return { sha256: hash.digest('hex'), size }
}

/**
 * `afterSnapshot` runs between the database copy and the file copy (tests delete a version there).
 * `files: false` when the artifact files are in object storage: then only the database and secrets.
 */
export async function backupDataDir(
  dataDir: string,
  target: string,
  hooks: { afterSnapshot?: () => Promise<void> } = {},
  options: { files?: boolean } = {},
): Promise<BackupReport> {
  const database = join(dataDir, 'ferry.db')
  if (
    !(await stat(database).then(
      (s) => s.isFile(),
      () => false,
    ))
  )
    throw new BackupError(`${database} does not exist: is ${dataDir} Ferry's data directory (FERRY_DATA_DIR)?`)
  await newFolder(target)
  const files = options.files ?? true
  if (files) await mkdir(join(target, 'blobs'), { mode: 0o700 })

  const live = new BetterSqlite3(database, { readonly: true, fileMustExist: true })
  const copyFileName = join(target, 'ferry.db')
  try {
    await live.backup(copyFileName)
    await hooks.afterSnapshot?.()
    const copy = new BetterSqlite3(copyFileName)
    try {
      const integrity = copy.pragma('integrity_check', { simple: true })
      if (integrity !== 'ok')
        throw new BackupError(`the copied database fails SQLite's integrity check: ${String(integrity)}`)
      const rows = files
        ? (copy
            .prepare('SELECT blob_key, size, sha256, version_id FROM artifacts ORDER BY blob_key')
            .all() as ArtifactRow[])
        : []
      const stillListed = live.prepare('SELECT 1 FROM artifacts WHERE blob_key = ?').pluck()
      let bytes = 0
      const gone = new Set<string>()
      for (const row of rows) {
        const source = join(dataDir, 'blobs', row.blob_key)
        let copied: { sha256: string; size: number }
        try {
          copied = await copyHashing(source, join(target, 'blobs', row.blob_key))
        } catch (error) {
          const missing = error instanceof Error && 'code' in error && error.code === 'ENOENT'
          if (missing && stillListed.get(row.blob_key) === undefined) {
            gone.add(row.version_id)
            continue
          }
          throw new BackupError(
            missing
              ? `${source} is missing, but the server still lists it (artifact of version ${row.version_id}): the data directory has lost a file; restore it from an earlier backup`
              : `cannot copy ${source}: ${error instanceof Error ? error.message : String(error)}`,
          )
        }
        if (copied.sha256 !== row.sha256 || copied.size !== row.size) {
          throw new BackupError(
            `${source} does not match its record (SHA-256 ${copied.sha256.slice(0, 12)}…, ${copied.size} bytes; expected ${row.sha256.slice(0, 12)}…, ${row.size} bytes)`,
          )
        }
        bytes += copied.size
      }
      if (gone.size > 0) {
        copy.pragma('foreign_keys = ON')
        const drop = copy.prepare('DELETE FROM versions WHERE id = ?')
        copy.transaction(() => {
          for (const id of gone) drop.run(id)
        })()
      }
      const secrets = await copySecrets(dataDir, target)
      const kept = files ? Number(copy.prepare('SELECT count(*) FROM artifacts').pluck().get()) : 0
      return { artifacts: kept, bytes, droppedVersions: [...gone].sort(), secrets }
    } finally {
      copy.close()
    }
  } finally {
    live.close()
  }
}

/** Refuses a folder that is not empty, so no earlier backup is overwritten; creates it (mode 700). */
async function newFolder(target: string): Promise<void> {
  if (!(await isEmptyOrAbsent(target)))
    throw new BackupError(`${target} is not empty: back up into a new folder, so no earlier backup is overwritten`)
  await mkdir(target, { recursive: true, mode: 0o700 })
}

/** Copies the secret files the data directory holds; their names. */
async function copySecrets(dataDir: string, target: string): Promise<string[]> {
  const secrets: string[] = []
  for (const name of SECRET_FILES) {
    try {
      await copyFile(join(dataDir, name), join(target, name))
      secrets.push(name)
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'ENOENT')) throw error
    }
  }
  return secrets
}

/** The child's environment: this process's, with the password pg_dump reads (never its command line). */
const withPassword = (password: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv =>
  password ? { ...env, PGPASSWORD: password } : env

/**
 * The PostgreSQL database as `pg_dump --format=custom` writes it (a consistent snapshot while the
 * server writes; restore with pg_restore) into `<target>/ferry.dump`, then the secret files of the
 * data directory. The password goes to pg_dump in its environment, not on its command line.
 */
export async function backupPostgres(
  databaseUrl: string,
  dataDir: string,
  target: string,
): Promise<{ secrets: string[] }> {
  await newFolder(target)
  const url = new URL(databaseUrl)
  const password = decodeURIComponent(url.password)
  url.password = ''
  const dump = join(target, 'ferry.dump')
  const stderr = await new Promise<string | undefined>((done, fail) => {
    const child = spawn('pg_dump', ['--format=custom', `--file=${dump}`, `--dbname=${url.href}`], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: withPassword(password, process.env),
    })
    let text = ''
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()))
    child.once('error', (error: NodeJS.ErrnoException) =>
      fail(
        new BackupError(
          error.code === 'ENOENT'
            ? 'pg_dump is not installed: install the PostgreSQL client tools (Debian: apt-get install postgresql-client)'
            : `cannot run pg_dump: ${error.message}`,
        ),
      ),
    )
    child.once('close', (code) => done(code === 0 ? undefined : text.trim() || `exit ${code}`))
  })
  if (stderr !== undefined) throw new BackupError(`pg_dump failed: ${stderr}`)
  return { secrets: await copySecrets(dataDir, target) }
}
