/**
 * `npm run backup -- <folder>`: a consistent copy of the embedded setup's data directory
 * (`FERRY_DATA_DIR`, default ./data) while the server runs. The logic is in
 * server/storage/backup-node.ts; restore by starting the server on the folder.
 */
import { resolve } from 'node:path'
import { ConfigError, loadConfig } from '../server/runtime/config.ts'
import { BackupError, backupDataDir } from '../server/storage/backup-node.ts'
import { formatBytes } from '../lib/ferry-cli/output.ts'

const USAGE = 'usage: npm run backup -- <new folder>   (reads FERRY_DATA_DIR like the server; default ./data)'

/** npm runs scripts from the checkout's root; the new folder is named from where npm was invoked. */
const invokedFrom =
  process.env.npm_lifecycle_event === 'backup' && process.env.INIT_CWD ? process.env.INIT_CWD : process.cwd()

async function main(args: string[]): Promise<number> {
  const [target, ...extra] = args
  if (!target || extra.length > 0 || target.startsWith('-')) {
    console.error(USAGE)
    return 2
  }
  let config
  try {
    config = loadConfig(process.env)
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`backup: ${error.message}`)
      return 2
    }
    throw error
  }
  if (config.databaseUrl || config.blobs.kind === 's3') {
    console.error(
      [
        'backup: this command copies the embedded setup (SQLite and files in the data directory).',
        config.databaseUrl
          ? "  The database is PostgreSQL (FERRY_DATABASE_URL): back it up with pg_dump or your provider's snapshots."
          : '',
        config.blobs.kind === 's3'
          ? "  Artifact files are in object storage (FERRY_BLOB_URL): use the bucket's versioning or replication."
          : '',
      ]
        .filter(Boolean)
        .join('\n'),
    )
    return 2
  }
  const dataDir = resolve(config.dataDir)
  try {
    const report = await backupDataDir(dataDir, resolve(invokedFrom, target))
    console.log(`backup: database copied from ${dataDir}/ferry.db (integrity ok)`)
    console.log(
      `backup: ${report.artifacts} artifact files copied, ${formatBytes(report.bytes)}, each matching its SHA-256`,
    )
    if (report.droppedVersions.length > 0)
      console.log(
        `backup: left out ${report.droppedVersions.length} version(s) deleted while the backup ran: ${report.droppedVersions.join(', ')}`,
      )
    console.log(
      `backup: secrets copied: ${report.secrets.length > 0 ? report.secrets.join(', ') : 'none in the data directory (FERRY_SIGNUP_KEY and FERRY_JWT_SECRET come from the environment: keep them with the backup)'}`,
    )
    return 0
  } catch (error) {
    if (error instanceof BackupError) {
      console.error(`backup: ${error.message}`)
      return 1
    }
    throw error
  }
}

process.exitCode = await main(process.argv.slice(2))
