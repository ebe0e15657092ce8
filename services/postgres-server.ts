/**
 * A real PostgreSQL for the tests: Debian's server binaries, a cluster in a temporary directory
 * on a free port of 127.0.0.1, stopped by `pg_ctl` at the end. Every caller gets its own fresh
 * database. `FERRY_TEST_DATABASE_URL=postgres://user:pass@host:port/db` points the tests at an
 * existing server instead (its user must be allowed to CREATE DATABASE).
 */
import { execFile } from 'node:child_process'
import { chown, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { freePort } from '../lib/docs-runner/server.ts'

const run = promisify(execFile)

export interface TestPostgres {
  /** URL of the server's admin database. */
  url: string
  /** A new, empty database on the server; its URL. */
  createDatabase(): Promise<string>
  stop(): Promise<void>
}

/** A cluster this process started, which a test may take down and bring back on the same port. */
export interface OwnPostgres extends TestPostgres {
  /** Stops the server (fast shutdown: connections are cut), keeping its data. */
  halt(): Promise<void>
  /** Starts it again on the same port and data. */
  resume(): Promise<void>
}

async function binDir(): Promise<string> {
  const versions = await readdir('/usr/lib/postgresql').catch(() => [] as string[])
  const newest = versions.filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a))[0]
  if (!newest) {
    throw new Error(
      'PostgreSQL server binaries not found under /usr/lib/postgresql: install them with `apt-get install -y postgresql`, or set FERRY_TEST_DATABASE_URL to a server of yours',
    )
  }
  return `/usr/lib/postgresql/${newest}/bin`
}

let counter = 0
/** Creates a fresh database on the server at `url` (an admin database); returns its URL. */
export function databases(url: string): () => Promise<string> {
  return async () => {
    // The random part: test files run in child processes one after another, and a pid can come back.
    const name = `ferry_test_${process.pid}_${++counter}_${randomBytes(4).toString('hex')}`
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    try {
      await admin.query(`CREATE DATABASE ${name}`)
    } finally {
      await admin.end()
    }
    const u = new URL(url)
    u.pathname = `/${name}`
    return u.toString()
  }
}

/** Starts a cluster (a few seconds), or uses `FERRY_TEST_DATABASE_URL`. */
export async function startPostgres(): Promise<TestPostgres> {
  const external = process.env.FERRY_TEST_DATABASE_URL
  if (external) return { url: external, createDatabase: databases(external), stop: async () => undefined }
  return startOwnPostgres()
}

/** Always starts a local cluster, whatever FERRY_TEST_DATABASE_URL says (outage tests need one). */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = await binDir()
  const dir = await mkdtemp(join(tmpdir(), 'ferry-pg-'))
  // The server refuses to run as root: as root, the cluster belongs to the postgres user.
  const asRoot = process.getuid?.() === 0
  const as = (cmd: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]) : run(join(bin, cmd), args)
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres'])
    const { stdout: gid } = await run('id', ['-g', 'postgres'])
    await chown(dir, Number(stdout.trim()), Number(gid.trim()))
  }
  const data = join(dir, 'data')
  await as('initdb', ['-D', data, '-A', 'trust', '-U', 'ferry', '--no-sync', '-E', 'UTF8'])
  const port = await freePort()
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`
  const start = () => as('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'server.log'), '-w', 'start'])
  await start()
  const url = `postgres://ferry@127.0.0.1:${port}/postgres`
  return {
    url,
    createDatabase: databases(url),
    async halt() {
      await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop'])
    },
    async resume() {
      await start()
    },
    async stop() {
      await as('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']).catch(() => undefined)
      await rm(dir, { recursive: true, force: true })
    },
  }
}
