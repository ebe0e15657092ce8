/**
 * @module CLI: generate the API reference, types and contract files from openapi/openapi.yaml,
 * and the API changelog from the frozen releases (versions.json, openapi/versions/) of the
 * repository it runs in. `--check` also runs the breaking-change gate (lib/api-changelog/gate.ts).
 */
import { parseArgs } from 'node:util'
import { generate } from '../lib/generate-api.ts'
import { checkFiles, writeFiles } from '../lib/codegen/files.ts'
import { loadSpec, SpecError } from '../lib/codegen/load.ts'
import { checkBreakingChanges } from '../lib/api-changelog/gate.ts'
import { loadHistory } from '../lib/api-changelog/history.ts'

const { values } = parseArgs({
  options: {
    check: { type: 'boolean', default: false },
    spec: { type: 'string', default: 'openapi/openapi.yaml' },
    out: { type: 'string', default: '.' },
  },
})

async function main(): Promise<number> {
  const history = await loadHistory(process.cwd())
  const spec = await loadSpec(values.spec!)
  const { files, warnings } = await generate(spec, {}, history)
  for (const warning of warnings) console.warn(`warning: ${warning}`)
  const gate = checkBreakingChanges(spec, history)
  if (values.check) {
    const drift = await checkFiles(values.out!, files)
    const problems = [
      ...drift.stale.map((f) => `stale: ${f}`),
      ...drift.missing.map((f) => `missing: ${f}`),
      ...drift.extra.map((f) => `extra: ${f}`),
    ]
    if (!gate.ok)
      console.error(
        `gen-api --check: breaking changes since frozen version ${gate.against} need a new info.version (see /docs/api/changelog):\n${gate.problems.join('\n')}`,
      )
    if (problems.length > 0)
      console.error(
        `gen-api --check: generated files are out of date (run \`npm run gen\`):\n${problems.map((p) => `  ${p}`).join('\n')}`,
      )
    if (problems.length > 0 || !gate.ok) return 1
    console.log(
      `gen-api: ${files.size} files up to date; no breaking change without a version bump${gate.against ? ` since ${gate.against}` : ''}`,
    )
    return 0
  }
  if (!gate.ok)
    console.warn(
      `warning: \`npm run gen:check\` will fail: breaking changes since frozen version ${gate.against} need a new info.version:\n${gate.problems.join('\n')}`,
    )
  const { written, removed } = await writeFiles(values.out!, files)
  console.log(`gen-api: ${files.size} files, ${written.length} written, ${removed.length} removed`)
  for (const f of written) console.log(`  wrote ${f}`)
  for (const f of removed) console.log(`  removed ${f}`)
  return 0
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof SpecError) console.error(`gen-api: invalid spec\n  ${error.message}`)
    else console.error('gen-api failed:', error)
    process.exit(1)
  },
)
