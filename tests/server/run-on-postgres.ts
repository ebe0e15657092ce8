/**
 * Runs server test files on the scale-out backends: every server and in-process app on
 * PostgreSQL with its artifacts in S3-compatible object storage. Starts one PostgreSQL cluster
 * (or uses FERRY_TEST_DATABASE_URL) and one radosgw (or uses the bucket FERRY_TEST_S3_* name),
 * sets FERRY_TEST_BACKEND=postgres and FERRY_TEST_BLOBS=s3, runs `node --test` on the files given
 * (default: every `tests/server/*.test.ts` whose first line does not opt out with
 * `// backend-matrix: sqlite-only — <reason>`), stops both, exits with the tests' status.
 * FERRY_TEST_CONCURRENCY sets how many files run at once (default 2).
 */
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { startPostgres } from '../../services/postgres-server.ts'
import { locationEnvironment } from '../../services/s3-location.ts'
import { startS3 } from '../../services/s3-server.ts'

/** The first line of a suite that stays out of this run, and why. */
const OPT_OUT = /^\/\/ backend-matrix: sqlite-only — (\S.*)$/

/** Every server suite, minus those that opt out (printed with their reasons). */
function matrixSuites(dir = import.meta.dirname): {
  suites: string[]
  optedOut: Array<{ file: string; reason: string }>
} {
  const suites: string[] = []
  const optedOut: Array<{ file: string; reason: string }> = []
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.test.ts'))
    .sort()) {
    const file = relative(process.cwd(), join(dir, name))
    const reason = OPT_OUT.exec(readFileSync(join(dir, name), 'utf8').split('\n', 1)[0] ?? '')?.[1]
    if (reason) optedOut.push({ file, reason })
    else suites.push(file)
  }
  return { suites, optedOut }
}

let files = process.argv.slice(2)
if (!files.length) {
  const { suites, optedOut } = matrixSuites()
  for (const { file, reason } of optedOut)
    console.log(`backend matrix: ${file} is not rerun on PostgreSQL + S3: ${reason}`)
  files = suites
}
const concurrency = process.env.FERRY_TEST_CONCURRENCY ?? '2'
const [database, s3] = await Promise.all([startPostgres(), startS3()])
const code = await new Promise<number>((resolve) => {
  const child = spawn(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...files], {
    stdio: 'inherit',
    env: {
      ...process.env,
      FERRY_TEST_BACKEND: 'postgres',
      FERRY_TEST_DATABASE_URL: database.url,
      FERRY_TEST_BLOBS: 's3',
      ...locationEnvironment(s3.location('matrix')),
    },
  })
  child.on('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0)))
})
await Promise.all([database.stop(), s3.stop()])
process.exit(code)
