/**
 * @module The guides' GitHub Actions YAML, read and run as a script where `act` is not available:
 * each step in order, `run:` with bash as GitHub runs it (`bash --noprofile --norc -eo pipefail`)
 * in its `working-directory` under the workspace, with the step's `env`; `${{ … }}` replaced from
 * the caller's table (an unknown expression fails); `if:` of the form `a == 'b'`; `uses:` steps
 * handed to the caller, which performs or replaces them.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'yaml'

export interface Step {
  name?: string
  uses?: string
  run?: string
  if?: string
  with?: Record<string, string>
  env?: Record<string, string>
  'working-directory'?: string
}

export interface Workflow {
  jobs: Record<string, { 'runs-on'?: string; strategy?: { matrix?: Record<string, unknown> }; steps: Step[] }>
}

export interface PageWorkflow {
  line: number
  /** The job's steps; a block showing only steps is one job of those steps. */
  steps: Step[]
  workflow: Workflow | undefined
}

/** The page's YAML blocks that are workflows (jobs with steps) or a list of workflow steps. */
export function pageWorkflows(root: string, page: string): PageWorkflow[] {
  const text = readFileSync(join(root, page), 'utf8')
  const found: PageWorkflow[] = []
  for (const m of text.matchAll(/^```yaml[^\n]*\n([\s\S]*?)^```/gm)) {
    const line = text.slice(0, m.index).split('\n').length
    const data: unknown = parse(m[1]!)
    if (typeof data === 'object' && data !== null && 'jobs' in data) {
      const workflow = data as Workflow
      for (const job of Object.values(workflow.jobs)) found.push({ line, steps: job.steps, workflow })
    } else if (
      Array.isArray(data) &&
      data.every((s) => typeof s === 'object' && s !== null && ('run' in s || 'uses' in s))
    )
      found.push({ line, steps: data as Step[], workflow: undefined })
  }
  return found
}

export interface StepResult {
  step: Step
  /** What happened: ran, performed by the caller, or why it was skipped. */
  how: string
  output: string
}

export interface RunOptions {
  workspace: string
  /** `${{ expression }}` values, by expression (`secrets.FERRY_TOKEN`, `github.ref_name`, …). */
  expressions: Record<string, string>
  /** The runner's environment every step starts from (PATH, GITHUB_*). */
  env: Record<string, string>
  /** Performs or replaces a `uses:` step; returns what it did. */
  uses: (step: Step, env: Record<string, string>) => Promise<string>
  /** A `run:` step the caller replaces (a build that cannot run here): the script to run instead and why, or undefined. */
  replace?: (run: string, step: Step) => { script: string; why: string } | { skip: string } | undefined
}

export function expand(text: string, expressions: Record<string, string>, where: string): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    const value = expressions[expression]
    if (value === undefined) throw new Error(`${where}: no value for \${{ ${expression} }}`)
    return value
  })
}

function condition(expression: string, expressions: Record<string, string>, where: string): boolean {
  const m = /^([\w.]+)\s*==\s*'([^']*)'$/.exec(expression.replace(/^\$\{\{\s*|\s*\}\}$/g, ''))
  if (!m) throw new Error(`${where}: if: ${expression} is not of the form a == 'b'`)
  const value = expressions[m[1]!]
  if (value === undefined) throw new Error(`${where}: no value for ${m[1]} in if: ${expression}`)
  return value === m[2]
}

function bash(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'ferry-workflow-step-'))
  const file = join(dir, 'step.sh')
  writeFileSync(file, script)
  // `env -i`: the step sees only the runner's and its own variables, none of this test's.
  const pairs = Object.entries(env).map(([key, value]) => `${key}=${value}`)
  const child = spawn('env', ['-i', ...pairs, 'bash', '--noprofile', '--norc', '-eo', 'pipefail', file], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise((resolve) =>
    child.once('close', (code) => {
      rmSync(dir, { recursive: true, force: true })
      resolve({ code, output })
    }),
  )
}

/** Runs the steps in order; throws at the first that fails, naming it and its output. */
export async function runSteps(where: string, steps: Step[], options: RunOptions): Promise<StepResult[]> {
  const results: StepResult[] = []
  for (const [index, step] of steps.entries()) {
    const label = `${where} step ${index + 1} (${step.name ?? step.uses ?? step.run?.split('\n')[0]})`
    if (step.if !== undefined && !condition(step.if, options.expressions, label)) {
      results.push({ step, how: `skipped: if: ${step.if} is false`, output: '' })
      continue
    }
    const env: Record<string, string> = { ...options.env }
    for (const [key, value] of Object.entries(step.env ?? {}))
      env[key] = expand(String(value), options.expressions, label)
    if (step.uses !== undefined) {
      results.push({ step, how: await options.uses(step, env), output: '' })
      continue
    }
    if (step.run === undefined) throw new Error(`${label}: neither run nor uses`)
    const written = expand(step.run, options.expressions, label)
    const replaced = options.replace?.(written, step)
    if (replaced && 'skip' in replaced) {
      results.push({ step, how: `skipped: ${replaced.skip}`, output: '' })
      continue
    }
    const cwd = join(options.workspace, step['working-directory'] ?? '')
    const run = await bash(replaced?.script ?? written, cwd, env)
    if (run.code !== 0) throw new Error(`${label} exited ${run.code}:\n${run.output.slice(-4000)}`)
    results.push({
      step,
      how: replaced ? `ran, with a replacement: ${replaced.why}` : 'ran as written',
      output: run.output,
    })
  }
  return results
}
