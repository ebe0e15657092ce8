/**
 * Runs server test files on the scale-out backends: every server and in-process app on
 * PostgreSQL with its artifacts in S3-compatible object storage. Starts one PostgreSQL cluster
 * (or uses FERRY_TEST_DATABASE_URL) and one radosgw (or uses the bucket FERRY_TEST_S3_* name),
 * sets FERRY_TEST_BACKEND=postgres and FERRY_TEST_BLOBS=s3, runs `node --test` on the files given
 * (default: the API-level suites), stops both, exits with the tests' status.
 */
import { spawn } from 'node:child_process'
import { startPostgres } from './postgres-server.ts'
import { locationEnvironment } from './s3-location.ts'
import { startS3 } from './s3-server.ts'

const DEFAULT_SUITES = [
  'contract', 'permissions', 'update-logic', 'protocols', 'answer-cache', 'telemetry', 'faults',
  'concurrency', 'invalidation', 'server-wide-names', 'auth', 'uploads', 'artifact-download', 'instances', 'version-order',
  'api-tokens', 'rollouts',
].map((name) => `tests/server/${name}.test.ts`)

const files = process.argv.slice(2)
const [database, s3] = await Promise.all([startPostgres(), startS3()])
const code = await new Promise<number>((resolve) => {
  const child = spawn(process.execPath, ['--import', 'tsx', '--test', ...(files.length ? files : DEFAULT_SUITES)], {
    stdio: 'inherit',
    env: {
      ...process.env, FERRY_TEST_BACKEND: 'postgres', FERRY_TEST_DATABASE_URL: database.url,
      FERRY_TEST_BLOBS: 's3', ...locationEnvironment(s3.location('matrix')),
    },
  })
  child.on('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0)))
})
await Promise.all([database.stop(), s3.stop()])
process.exit(code)
