/**
 * `npm run api:diff -- --base <git ref>`: the API changes of the working tree's contract against
 * the contract at <ref>, as Markdown for a pull-request comment (lib/api-changelog/pr-comment.ts).
 * Exit codes: 0 printed, 2 wrong usage or a ref/contract that cannot be read (the message names it).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { GitContractError, contractAtRef, gitRoot } from '../lib/api-changelog/git-contract.ts'
import { pullRequestDiff } from '../lib/api-changelog/pr-comment.ts'
import { routeTable } from '../lib/api-changelog/releases.ts'
import { createContext } from '../lib/codegen/context.ts'
import { SpecError, loadSpec } from '../lib/codegen/load.ts'
import { transformTags } from '../lib/codegen/transform/operation.ts'
import { siteConfig } from '../site.config.ts'

const SPEC_FILE = 'openapi/openapi.yaml'
const USAGE = 'usage: npm run api:diff -- --base <git ref> [--site-url <origin>]'

/** The newest frozen docs version in versions.json, whose accepted breaking changes apply. */
function newestFrozen(root: string): string | undefined {
  const file = join(root, 'versions.json')
  if (!existsSync(file)) return undefined
  const { versions } = JSON.parse(readFileSync(file, 'utf8')) as { versions: Array<{ id: string; frozen?: string }> }
  return [...versions].sort((a, b) => (b.frozen ?? '').localeCompare(a.frozen ?? ''))[0]?.id
}

async function run(): Promise<number> {
  let values: { base?: string | undefined; 'site-url'?: string | undefined }
  try {
    ;({ values } = parseArgs({ options: { base: { type: 'string' }, 'site-url': { type: 'string' } }, strict: true, allowPositionals: false }))
  } catch (error) {
    process.stderr.write(`api:diff: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`)
    return 2
  }
  if (!values.base) {
    process.stderr.write(`api:diff: --base <git ref> is required (e.g. origin/main)\n${USAGE}\n`)
    return 2
  }
  try {
    const root = gitRoot(process.cwd())
    const base = contractAtRef(root, values.base, SPEC_FILE)
    const head = await loadSpec(join(root, SPEC_FILE))
    const routes = routeTable(transformTags(createContext(head)).flatMap((tag) => tag.operations))
    const siteUrl = (values['site-url'] ?? siteConfig.url).replace(/\/$/, '')
    const diff = pullRequestDiff({ baseRef: values.base, base, head: head.raw, routes, siteUrl, since: newestFrozen(root) })
    process.stdout.write(diff.markdown)
    return 0
  } catch (error) {
    if (!(error instanceof GitContractError || error instanceof SpecError)) throw error
    process.stderr.write(`api:diff: ${error.message}\n`)
    return 2
  }
}

process.exitCode = await run()
