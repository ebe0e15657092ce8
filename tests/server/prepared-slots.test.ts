// backend-matrix: sqlite-only — type-checks a fixture with TypeScript; no database or blob store
/**
 * A prepared statement's slots are opaque (server/storage/prepared.ts): `build` hands them to
 * Kysely and branches on the shape, but comparing a slot, calling a method on it or reading its
 * fields does not compile, because the SQL it would build is compiled once and reused for every
 * call of that shape. Shown by compiling tests/server/fixtures/prepared-slots.ts with TypeScript
 * after taking out its `@ts-expect-error` comments.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import ts from 'typescript'

const root = join(import.meta.dirname, '..', '..')
const fixture = join(import.meta.dirname, 'fixtures', 'prepared-slots.ts')

test('looking at a slot is a type error; handing it to Kysely is not', { timeout: 120_000 }, () => {
  const source = readFileSync(fixture, 'utf8')
  const expected = [...source.split('\n').entries()]
    .filter(([, line]) => line.trim().startsWith('// @ts-expect-error'))
    .map(([index, line]) => ({ line: index + 2, code: Number(/@ts-expect-error TS(\d+)/.exec(line)?.[1]) }))
  assert.equal(expected.length, 4, 'the fixture marks four lines that must not compile')

  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    },
  )
  assert.ok(config)
  const host = ts.createCompilerHost(config.options)
  const readFile = host.readFile.bind(host)
  host.readFile = (file) =>
    file === fixture ? source.replaceAll('// @ts-expect-error', '// expected:') : readFile(file)
  const program = ts.createProgram([fixture], { ...config.options, noEmit: true }, host)
  const found = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === fixture)
    .map((d) => ({ line: d.file!.getLineAndCharacterOfPosition(d.start!).line + 1, code: d.code }))
  assert.deepEqual(found, expected, 'errors on exactly the marked lines, and none where slots go to Kysely')
})
