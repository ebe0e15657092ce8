/**
 * The API pages' code samples, run: every operation's generated sample (and its `x-codeSamples`)
 * in each language that runs here, against a real Ferry seeded like /demo, each answer checked
 * against the contract. A sample gets fresh data of its own (sample-runs/setups.ts) and only
 * what a reader fills in: the server URL, a token, the ids of the reader's own records.
 * Rust's samples build offline with Debian's cargo against Debian's reqwest and serde_json crate
 * sources (scripts/test-deps.sh installs them), all in one binary whose build is cached in
 * ~/.cache/ferry/rust-samples-target.
 * Backends: `npm test` runs it on SQLite and files only; its server comes from `startTestServer`,
 * so `npx tsx tests/server/run-on-postgres.ts <this file>` runs it on PostgreSQL + S3 (not in CI).
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { checkAnswer, isJsonType } from '../../contract/answer.ts'
import type { OperationModel } from '../../lib/codegen/model.ts'
import { SAMPLE_TARGETS, operationSamples } from '../../lib/codegen/samples.ts'
import { seedDemo } from '../../server/demo/seed.ts'
import { SIGNUP_KEY, httpFetch, startTestServer, type TestServer } from '../server/helpers.ts'
import { loadReal } from './helpers.ts'
import { END_MARK, RUNNERS, type Runner, type Sample } from './sample-runs/languages.ts'
import { startRecorder, type Recorder } from './sample-runs/recorder.ts'
import { NOT_RUN, setUp, uploadFiles, type Api } from './sample-runs/setups.ts'

const PARALLEL = 2
const { ctx, tags } = await loadReal()
const operations = tags.flatMap((t) => t.operations)

interface Run {
  id: string
  op: OperationModel
  runner: Runner
  sample: Sample
  /** The status a reader gets on the seeded server. */
  expected: number
}

interface Outcome {
  run: Run
  exitCode: number | null
  output: string
  problems: string[]
}

let server: TestServer
let recorder: Recorder
const dir = mkdtempSync(join(tmpdir(), 'ferry-sample-runs-'))
const work = join(dir, 'work')
const outcomes: Outcome[] = []
const timings: string[] = []

/** The documented success status: the lowest 2xx, else (a redirect to the file) the lowest 3xx. */
function successStatus(op: OperationModel): number {
  const statuses = op.responses.map((r) => Number(r.status)).filter((s) => s >= 200 && s < 400)
  assert.ok(statuses.length, `${op.operationId} documents no 2xx or 3xx answer`)
  return Math.min(...statuses)
}

/** What a reader does before running a sample: their server, their token, their own records' ids. */
function filledIn(code: string, base: string, replace: [string, string][]): string {
  let out = code.replaceAll(ctx.serverUrl, base)
  for (const [from, to] of replace) out = out.replaceAll(from, to)
  return out
}

interface Ran {
  exitCode: number | null
  output: string
  errors: string
}

function execute(command: string, args: string[]): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: work, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 })
    let output = ''
    let errors = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()))
    child.on('error', (error) => resolve({ exitCode: null, output, errors: `${errors}${error.message}` }))
    child.on('close', (exitCode) => resolve({ exitCode, output, errors }))
  })
}

/** The problems with a run's answer: not the status expected, or a body the contract does not allow. */
function answerProblems(run: Run): string[] {
  const [answer] = recorder.answers(run.id)
  if (!answer) return ['the sample sent no request to the server']
  const problems: string[] = []
  if (answer.status !== run.expected)
    problems.push(`answered ${answer.status}, not ${run.expected}: ${answer.body.toString('utf8').slice(0, 300)}`)
  const text = answer.body.toString('utf8')
  let json: unknown
  let jsonError: string | undefined
  if (isJsonType(answer.contentType) && answer.body.length > 0)
    try {
      json = JSON.parse(text)
    } catch (error) {
      jsonError = String(error)
    }
  const check = checkAnswer(run.op.server, {
    status: answer.status,
    contentType: answer.contentType,
    json,
    jsonError,
    bytes: answer.body.length,
    truncated: false,
  })
  return [...problems, ...check.problems.map((p) => `contract: ${p}`)]
}

async function pool<T>(items: T[], worker: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items]
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await worker(item)
    }),
  )
}

before(async () => {
  const started = performance.now()
  // The webhook samples name hooks.example.org, which does not resolve offline: webhookAllowPrivate skips that check.
  server = await startTestServer(undefined, { webhookAllowPrivate: true })
  recorder = await startRecorder(server.url)
  const call = httpFetch(server.url)
  const demo = await seedDemo(call, SIGNUP_KEY)
  const api: Api = { call, token: demo.token, signupKey: SIGNUP_KEY }
  mkdirSync(join(work, 'vendor'), { recursive: true })
  // PHP's samples load Guzzle through Composer's autoloader; Debian's php-guzzlehttp-guzzle has its own.
  writeFileSync(join(work, 'vendor', 'autoload.php'), "<?php\nrequire_once('GuzzleHttp/autoload.php');\n")

  const runs: Run[] = []
  let n = 0
  for (const op of operations) {
    if (NOT_RUN[op.operationId]) continue
    for (const runner of RUNNERS) {
      const language = SAMPLE_TARGETS.find((t) => t.label === runner.label)?.language
      const contract = op.codeSamples.filter((s) => s.language === language)
      for (const [i, written] of [undefined, ...contract].entries()) {
        if (written && NOT_RUN[`${op.operationId}/${written.label}`]) continue
        const name = written ? `${op.operationId}_contract${i}` : op.operationId
        const id = `${runner.label.replace(/\W/g, '')}.${name}`
        let setup: Awaited<ReturnType<typeof setUp>>
        try {
          setup = await setUp(op.operationId, api, `s${++n}`)
        } catch (error) {
          const sample = { name, code: '' }
          outcomes.push({
            run: { id, op, runner, sample, expected: 0 },
            exitCode: null,
            output: '',
            problems: [String(error)],
          })
          continue
        }
        const replace: [string, string][] = [
          ['<token>', setup.token ?? demo.token],
          ['<signup-key>', SIGNUP_KEY],
          ...Object.entries(setup.replace ?? {}),
        ]
        // Generated for the server they run against; `x-codeSamples` name the contract's server, which a reader replaces.
        const base = recorder.base(id)
        const code = written?.code ?? operationSamples(op, base).find((s) => s.label === runner.label)?.code
        assert.ok(code !== undefined, `${op.operationId}: no ${runner.label} sample`)
        for (const file of uploadFiles(op))
          writeFileSync(join(work, filledIn(file, '', replace)), `sample upload ${file}\n`)
        runs.push({
          id,
          op,
          runner,
          sample: { name, code: filledIn(code, base, replace) },
          expected: successStatus(op),
        })
      }
    }
  }
  timings.push(`set-up of ${runs.length} runs: ${Math.round(performance.now() - started)} ms`)

  const prepared = new Map<Runner, string | undefined>()
  await pool(RUNNERS, async (runner) => {
    const at = performance.now()
    try {
      await runner.prepare(
        runs.filter((r) => r.runner === runner).map((r) => r.sample),
        join(dir, runner.label.replace(/\W/g, '')),
      )
      prepared.set(runner, undefined)
    } catch (error) {
      prepared.set(runner, String(error))
    }
    timings.push(`${runner.label}: prepared in ${Math.round(performance.now() - at)} ms`)
  })

  const at = performance.now()
  const folder = (runner: Runner) => join(dir, runner.label.replace(/\W/g, ''))
  // A batch (one JVM, one Mono, one Go program for a language) first, so the others run beside it.
  const jobs: (Run | Runner)[] = [...RUNNERS.filter((r) => r.batch), ...runs.filter((r) => !r.runner.batch)]
  await pool(jobs, async (job) => {
    const runner = 'runner' in job ? job.runner : job
    const mine = 'runner' in job ? [job] : runs.filter((r) => r.runner === job)
    const failed = prepared.get(runner)
    if (failed !== undefined) {
      for (const run of mine)
        outcomes.push({ run, exitCode: null, output: '', problems: [`did not compile: ${failed}`] })
      return
    }
    if ('runner' in job) {
      const { command, args } = runner.command!(job.sample, folder(runner))
      const { exitCode, output, errors } = await execute(command, args)
      const problems = answerProblems(job)
      if (exitCode !== 0) problems.push(`exited with ${exitCode}`)
      // fetch's samples catch an error and print it: a reader would see it on stderr. curl's progress meter goes there too.
      else if (errors.trim() && runner.label !== 'curl')
        problems.push(`printed an error: ${errors.trim().slice(0, 300)}`)
      outcomes.push({ run: job, exitCode, output: `${output}${errors}`, problems })
    } else {
      const { command, args } = runner.batch!(folder(runner))
      const { exitCode, output, errors } = await execute(command, [...args, ...mine.map((r) => r.sample.name)])
      // Each sample's output ends with its mark: `@@sample-end <name> ok|failed <why>`.
      const ends = [...output.matchAll(new RegExp(`^${END_MARK} (\\S+) (.*)$`, 'gm'))]
      let from = 0
      const results = new Map<string, { result: string; output: string }>()
      for (const end of ends) {
        results.set(end[1] ?? '', { result: end[2] ?? '', output: output.slice(from, end.index) })
        from = (end.index ?? 0) + end[0].length
      }
      for (const run of mine) {
        const ran = results.get(run.sample.name)
        const problems = answerProblems(run)
        if (!ran)
          problems.push(`never finished: the ${runner.label} run exited with ${exitCode}: ${errors.slice(-300)}`)
        else if (ran.result !== 'ok') problems.push(`threw: ${ran.result.slice(0, 300)}`)
        outcomes.push({ run, exitCode, output: ran?.output ?? '', problems })
      }
    }
  })
  timings.push(`${runs.length} runs: ${Math.round(performance.now() - at)} ms`)
  console.log(`samples-run: ${timings.join('; ')}; total ${Math.round(performance.now() - started)} ms`)
})

after(async () => {
  await recorder?.close()
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
})

for (const runner of RUNNERS) {
  test(`every ${runner.label} sample runs and gets an answer the contract documents`, () => {
    const mine = outcomes.filter((o) => o.run.runner === runner)
    assert.ok(mine.length > 0, `no ${runner.label} sample ran`)
    const failures = mine
      .filter((o) => o.problems.length > 0)
      .map(
        (o) =>
          `${o.run.op.operationId} (${runner.label}${o.run.sample.name.includes('_contract') ? ', x-codeSamples' : ''}): ${o.problems.join('; ')}\n  output: ${o.output.trim().slice(0, 400)}`,
      )
    assert.equal(failures.length, 0, `${failures.length} of ${mine.length} samples failed:\n${failures.join('\n')}`)
  })
}
