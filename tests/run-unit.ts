/**
 * `npm run test:unit`: every `tests/*.test.ts` and `tests/<folder>/*.test.ts`, FERRY_TEST_CONCURRENCY
 * files at once (default 2; `node --test` alone runs one at a time on a 2-core machine, while many
 * suites wait on a child process, a server or the npm registry). A suite whose
 * first line is `// unit-stage: alone — <reason>` changes files of this checkout that others read,
 * so it runs after the rest, by itself. Files named on the command line run instead of all. Both
 * batches run; the exit status is the first failing one's.
 */
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

/** The first line of a suite that must not run beside others, and why. */
const ALONE = /^\/\/ unit-stage: alone — (\S.*)$/

const root = join(import.meta.dirname, '..')
const tests = import.meta.dirname
const given = process.argv.slice(2)
const suites = given.length
  ? given
  : [
      ...readdirSync(tests)
        .filter((n) => n.endsWith('.test.ts'))
        .map((n) => join(tests, n)),
      ...readdirSync(tests)
        .filter((n) => statSync(join(tests, n)).isDirectory())
        .flatMap((dir) =>
          readdirSync(join(tests, dir))
            .filter((n) => n.endsWith('.test.ts'))
            .map((n) => join(tests, dir, n)),
        ),
    ]
      .map((file) => relative(root, file))
      .sort()

const together: string[] = []
const alone: string[] = []
for (const file of suites) {
  const reason = ALONE.exec(readFileSync(resolve(root, file), 'utf8').split('\n', 1)[0] ?? '')?.[1]
  if (reason) {
    console.log(`unit stage: ${file} runs alone after the rest: ${reason}`)
    alone.push(file)
  } else together.push(file)
}

const concurrency = process.env.FERRY_TEST_CONCURRENCY ?? '2'

function run(files: string[], atOnce: string): Promise<number> {
  if (!files.length) return Promise.resolve(0)
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${atOnce}`, ...files], {
      cwd: root,
      stdio: 'inherit',
    })
    child.on('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0)))
  })
}

const first = await run(together, concurrency)
const second = await run(alone, '1')
process.exit(first || second)
