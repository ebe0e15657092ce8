/**
 * Runs server test files with every in-process app on PostgreSQL: starts one cluster (or uses
 * FERRY_TEST_DATABASE_URL), sets FERRY_TEST_BACKEND=postgres, runs `node --test` on the files
 * given (default: the API-level suites), stops the cluster, exits with the tests' status.
 */
import { spawn } from 'node:child_process'
import { startPostgres } from './postgres-server.ts'

const DEFAULT_SUITES = [
  'contract', 'permissions', 'update-logic', 'protocols', 'answer-cache', 'telemetry', 'faults',
  'concurrency', 'invalidation', 'server-wide-names', 'auth', 'uploads', 'version-order',
].map((name) => `tests/server/${name}.test.ts`)

const files = process.argv.slice(2)
const server = await startPostgres()
const code = await new Promise<number>((resolve) => {
  const child = spawn(process.execPath, ['--import', 'tsx', '--test', ...(files.length ? files : DEFAULT_SUITES)], {
    stdio: 'inherit',
    env: { ...process.env, FERRY_TEST_BACKEND: 'postgres', FERRY_TEST_DATABASE_URL: server.url },
  })
  child.on('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0)))
})
await server.stop()
process.exit(code)
