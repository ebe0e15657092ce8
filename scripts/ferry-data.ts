/**
 * `ferry backup <new folder>` and `ferry db query <sql>`: Ferry's own data, read on the Node the
 * `ferry` bin runs on (the pinned one), with the server's configuration (FERRY_* variables,
 * `--data-dir` for FERRY_DATA_DIR). The backup's logic is in server/storage/drivers/backup-node.ts, the
 * read-only query's in server/storage/drivers/read-only-query-node.ts.
 */
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { parseCommand } from '../lib/ferry-cli/args.ts'
import { HELP } from '../lib/ferry-cli/commands.ts'
import { refused, usageError } from '../lib/ferry-cli/errors.ts'
import { formatBytes, table, type Io } from '../lib/ferry-cli/output.ts'
import { ConfigError, loadConfig, type ServerConfig } from '../server/runtime/config.ts'
import { BackupError, backupDataDir, backupPostgres } from '../server/storage/drivers/backup-node.ts'
import { QueryError, readOnlyQuery } from '../server/storage/drivers/read-only-query-node.ts'

/** The server's configuration as `ferry server --data-dir` would read it. */
function serverConfig(command: string, env: NodeJS.ProcessEnv, dataDir: string | undefined): ServerConfig {
  if (dataDir === '') throw usageError(`${command}: --data-dir needs a folder`)
  try {
    return loadConfig({ ...env, ...(dataDir !== undefined ? { FERRY_DATA_DIR: resolve(dataDir) } : {}) })
  } catch (error) {
    if (error instanceof ConfigError) throw usageError(`${command}: ${error.message}`)
    throw error
  }
}

export async function backupCommand(argv: string[], io: Io): Promise<void> {
  const { values, positionals } = parseCommand('backup', () =>
    parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }),
  )
  if (values.help) return io.out(HELP.backup ?? '')
  const [folder, ...extra] = positionals
  if (!folder || extra.length > 0) throw usageError('backup: name one new folder to write (see ferry backup --help)')
  const config = serverConfig('backup', io.env, values['data-dir'])
  const dataDir = resolve(config.dataDir)
  const target = resolve(folder)
  const inBucket = config.blobs.kind === 's3'
  try {
    if (config.databaseUrl) {
      const { secrets } = await backupPostgres(config.databaseUrl, dataDir, target)
      io.out(`backup: PostgreSQL database dumped into ${join(target, 'ferry.dump')} (pg_dump, custom format)`)
      if (!inBucket) io.out(`backup: artifact files are in ${join(dataDir, 'blobs')}: copy that folder after this dump`)
      reportSecrets(io, secrets)
    } else {
      const report = await backupDataDir(dataDir, target, {}, { files: !inBucket })
      io.out(`backup: database copied from ${dataDir}/ferry.db (integrity ok)`)
      if (!inBucket)
        io.out(
          `backup: ${report.artifacts} artifact files copied, ${formatBytes(report.bytes)}, each matching its SHA-256`,
        )
      if (report.droppedVersions.length > 0)
        io.out(
          `backup: left out ${report.droppedVersions.length} version(s) deleted while the backup ran: ${report.droppedVersions.join(', ')}`,
        )
      reportSecrets(io, report.secrets)
    }
  } catch (error) {
    if (error instanceof BackupError) throw refused(`backup: ${error.message}`)
    throw error
  }
  if (inBucket)
    io.out(
      "backup: artifact files are in object storage (FERRY_BLOB_URL): copy the bucket after this backup, or keep the bucket's versioning on",
    )
}

function reportSecrets(io: Io, secrets: string[]): void {
  io.out(
    `backup: secrets copied: ${secrets.length > 0 ? secrets.join(', ') : 'none in the data directory (FERRY_SIGNUP_KEY and FERRY_JWT_SECRET come from the environment: keep them with the backup)'}`,
  )
}

/** A value as one table cell or JSON value: bytes as hex, big integers as digits. */
function plain(value: unknown): unknown {
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`
  if (typeof value === 'bigint') return value.toString()
  if (value instanceof Date) return value.toISOString()
  return value
}

const cell = (value: unknown) => {
  const v = plain(value)
  return v === null || v === undefined ? 'NULL' : typeof v === 'object' ? JSON.stringify(v) : String(v)
}

export async function dbCommand(argv: string[], io: Io): Promise<void> {
  const [sub, ...rest] = argv
  if (sub === undefined || sub === '--help' || sub === '-h') return io.out(HELP.db ?? '')
  if (sub !== 'query') throw usageError(`db: unknown subcommand ${JSON.stringify(sub)}; subcommands: query`)
  const { values, positionals } = parseCommand('db', () =>
    parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: { json: { type: 'boolean' }, 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }),
  )
  if (values.help) return io.out(HELP.db ?? '')
  const [statement, ...extra] = positionals
  if (!statement?.trim() || extra.length > 0)
    throw usageError("db query: give one SQL statement, quoted: ferry db query 'SELECT …'")
  const config = serverConfig('db query', io.env, values['data-dir'])
  let result
  try {
    result = await readOnlyQuery(
      config.databaseUrl
        ? { postgresUrl: config.databaseUrl }
        : { sqliteFile: join(resolve(config.dataDir), 'ferry.db') },
      statement,
    )
  } catch (error) {
    if (error instanceof QueryError) throw refused(`db query: ${error.message}`)
    throw error
  }
  if (values.json) {
    for (const row of result.rows)
      io.out(JSON.stringify(Object.fromEntries(result.columns.map((name, i) => [name, plain(row[i])]))))
    return
  }
  if (result.columns.length === 0) return
  for (const line of table([result.columns, ...result.rows.map((row) => row.map(cell))])) io.out(line)
  io.err(`(${result.rows.length} row${result.rows.length === 1 ? '' : 's'})`)
}
