import assert from 'node:assert/strict'
import { spawnSync, type SpawnSyncReturns } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { SAMPLE_TARGETS, operationSamples } from '../../lib/codegen/samples.ts'
import type { OperationModel } from '../../lib/codegen/model.ts'
import { loadReal } from './helpers.ts'

const { ctx, tags } = await loadReal()
const operations = tags.flatMap((t) => t.operations)
const samples = new Map(operations.map((op) => [op, operationSamples(op, ctx.serverUrl)]))
const dir = mkdtempSync(join(tmpdir(), 'ferry-samples-'))

function sample(op: OperationModel, label: string): string {
  const found = samples.get(op)?.find((s) => s.label === label)
  assert.ok(found, `${op.operationId}: no ${label} sample`)
  return found.code
}

/**
 * Every operation's generated sample in the tab `label`, named by its operationId, and every
 * `x-codeSamples` entry in the same language, named `<operationId>_contract<n>`.
 */
function samplesIn(label: string): { name: string; code: string }[] {
  const language = SAMPLE_TARGETS.find((t) => t.label === label)?.language
  return operations.flatMap((op) => [
    { name: op.operationId, code: sample(op, label) },
    ...op.codeSamples
      .filter((s) => s.language === language)
      .map((s, i) => ({ name: `${op.operationId}_contract${i}`, code: s.code })),
  ])
}

/** Writes each sample of a tab (as `wrap` makes it) to `<dir>/<ext>/<name>.<ext>`; maps file → name. */
function writeSamples(
  label: string,
  ext: string,
  wrap: (code: string, name: string) => string = (code) => code,
): Map<string, string> {
  const folder = join(dir, ext)
  mkdirSync(folder, { recursive: true })
  const files = new Map<string, string>()
  for (const { name, code } of samplesIn(label)) {
    const file = join(folder, `${name}.${ext}`)
    writeFileSync(file, wrap(code, name))
    files.set(file, name)
  }
  return files
}

/** A missing checker fails the test: CI installs it (.ci/run). */
function run(command: string, args: string[], debianPackage: string): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { encoding: 'utf8' })
  assert.ifError(
    result.error && new Error(`${command} is missing (${result.error.message}): install Debian's ${debianPackage}`),
  )
  return result
}

/** One checker run over many files: fails naming the operations whose files its output names. */
function assertPassed(result: SpawnSyncReturns<string>, files: Map<string, string>): void {
  const output = `${result.stdout}${result.stderr}`
  const failed = [...files].filter(([file]) => output.includes(file)).map(([, operationId]) => operationId)
  assert.equal(result.status, 0, `${failed.join(', ') || 'unknown operation'}: ${output}`)
}

/** Splits leading directives (`import …;`, `using …;`) from the statements a wrapper puts in a method. */
function hoist(code: string, directive: RegExp): { head: string; body: string } {
  const lines = code.split('\n')
  const at = lines.findIndex((line) => line.trim() !== '' && !directive.test(line))
  return { head: lines.slice(0, at).join('\n'), body: lines.slice(at).join('\n') }
}

test('the contract has x-codeSamples, so the checks below cover them', () => {
  assert.ok(operations.some((op) => op.codeSamples.length > 0))
})

test('every shell sample passes bash -n', () => {
  for (const [file, name] of writeSamples('curl', 'sh')) {
    const result = run('bash', ['-n', file], 'bash')
    assert.equal(result.status, 0, `${name}: ${result.stderr}`)
  }
})

test('every JavaScript sample parses as an ES module', () => {
  for (const [file, name] of writeSamples('JavaScript', 'mjs')) {
    const result = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' })
    assert.equal(result.status, 0, `${name}: ${result.stderr}`)
  }
})

test('every Python sample compiles', () => {
  const files = writeSamples('Python', 'py')
  assertPassed(run('python3', ['-m', 'py_compile', ...files.keys()], 'python3'), files)
})

// Type-checked for real: the samples use only the standard library. Each is its own main package
// of one module, which `go vet` checks in one run, offline (GOPROXY=off, GOFLAGS=-mod=mod).
test('every Go sample passes go vet', () => {
  const root = join(dir, 'go')
  mkdirSync(root, { recursive: true })
  writeFileSync(join(root, 'go.mod'), 'module ferry.test/samples\n\ngo 1.19\n')
  const files = new Map<string, string>()
  for (const { name, code } of samplesIn('Go')) {
    const folder = join(root, name)
    mkdirSync(folder, { recursive: true })
    writeFileSync(join(folder, 'main.go'), code)
    files.set(`${name}/main.go`, name)
  }
  const result = spawnSync('go', ['vet', './...'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, GOPROXY: 'off', GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' },
  })
  assert.ifError(result.error && new Error(`go is missing (${result.error.message}): install Debian's golang-go`))
  assertPassed(result, files)
})

// Compiled for real: java.net.http is part of the JDK. A sample is imports and statements (as
// jshell, or Java 25's compact source files, take them); the check puts the statements in a main.
test('every Java sample compiles with javac', () => {
  const files = writeSamples('Java', 'java', (code, name) => {
    const { head, body } = hoist(code, /^import [\w.]+;$/)
    return `${head}\n\nclass Sample_${name} {\n  public static void main(String[] args) throws Exception {\n${body}\n  }\n}\n`
  })
  const result = run(
    'javac',
    ['-encoding', 'UTF-8', '-d', join(dir, 'java-classes'), ...files.keys()],
    'openjdk-17-jdk-headless',
  )
  assertPassed(result, files)
})

// Compiled for real by Mono's mcs against its System.Net.Http. mcs knows C# 7, not top-level
// statements (C# 9), so the check adds what .NET 6+ gives a top-level program: an async Main
// and the implicit usings.
test('every C# sample compiles with mcs', () => {
  const files = writeSamples('C#', 'cs', (code, name) => {
    const { head, body } = hoist(code, /^using [\w.]+;$/)
    return `using System;\nusing System.IO;\nusing System.Net.Http;\nusing System.Threading.Tasks;\n${head}\n\nstatic class Sample_${name}\n{\n  static async Task Main()\n  {\n${body}\n  }\n}\n`
  })
  const result = run(
    'mcs',
    ['-target:library', '-r:System.Net.Http.dll', `-out:${join(dir, 'samples.dll')}`, ...files.keys()],
    'mono-mcs and libmono-system-net-http4.0-cil',
  )
  assertPassed(result, files)
})

test('every PHP sample passes php -l', () => {
  for (const [file, name] of writeSamples('PHP', 'php')) {
    const result = run('php', ['-l', file], 'php-cli')
    assert.equal(result.status, 0, `${name}: ${result.stdout}${result.stderr}`)
  }
})

test('every Ruby sample passes ruby -c', () => {
  for (const [file, name] of writeSamples('Ruby', 'rb')) {
    const result = run('ruby', ['-c', file], 'ruby')
    assert.equal(result.status, 0, `${name}: ${result.stderr}`)
  }
})

// Parsed here, in a second: rustfmt reads each file as Rust 2021 and fails on a syntax error.
// samples-run.test.ts compiles and runs them against Debian's reqwest and serde_json.
test('every Rust sample parses (rustfmt)', () => {
  const files = writeSamples('Rust', 'rs')
  const result = run('rustfmt', ['--edition', '2021', '--emit', 'stdout', ...files.keys()], 'rustfmt')
  assertPassed(result, files)
})
