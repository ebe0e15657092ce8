/** @module CLI: generate the API reference, types and contract files from openapi/openapi.yaml. */
import { parseArgs } from 'node:util'
import { generate } from '../lib/codegen/index.ts'
import { checkFiles, writeFiles } from '../lib/codegen/files.ts'
import { SpecError } from '../lib/codegen/load.ts'

const { values } = parseArgs({
  options: {
    check: { type: 'boolean', default: false },
    spec: { type: 'string', default: 'openapi/openapi.yaml' },
    out: { type: 'string', default: '.' },
  },
})

async function main(): Promise<number> {
  const { files, warnings } = await generate(values.spec!)
  for (const warning of warnings) console.warn(`warning: ${warning}`)
  if (values.check) {
    const drift = await checkFiles(values.out!, files)
    const problems = [...drift.stale.map((f) => `stale: ${f}`), ...drift.missing.map((f) => `missing: ${f}`), ...drift.extra.map((f) => `extra: ${f}`)]
    if (problems.length === 0) {
      console.log(`gen-api: ${files.size} files up to date`)
      return 0
    }
    console.error(`gen-api --check: generated files are out of date (run \`npm run gen\`):\n${problems.map((p) => `  ${p}`).join('\n')}`)
    return 1
  }
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
