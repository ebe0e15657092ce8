/**
 * `npm run api:diff -- --base <git ref>`: the API changes of the working tree's contract against
 * the contract at <ref>, as Markdown for a pull-request comment (lib/api-changelog/pr-comment.ts).
 * `--from-version <id> [--to-version <id>]` compares frozen docs versions' contracts instead
 * (openapi/versions/<id>.yaml; without --to-version, with the working tree's contract).
 * Exit codes: 0 printed, 2 wrong usage or a ref/version/contract that cannot be read (the message names it).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { GitContractError, contractAtRef, gitRoot } from '../lib/api-changelog/git-contract.ts'
import { snapshotFile } from '../lib/api-changelog/history.ts'
import { pullRequestDiff } from '../lib/api-changelog/pr-comment.ts'
import { routeTable } from '../lib/api-changelog/releases.ts'
import { createContext } from '../lib/codegen/context.ts'
import { SpecError, loadSpec } from '../lib/codegen/load.ts'
import { transformTags } from '../lib/codegen/transform/operation.ts'
import { siteConfig } from '../site.config.ts'

const SPEC_FILE = 'openapi/openapi.yaml'
const USAGE =
  'usage: npm run api:diff -- --base <git ref> | --from-version <id> [--to-version <id>]  [--site-url <origin>]'

class UsageError extends Error {}

/** The frozen docs versions in versions.json, newest first. */
function frozenVersions(root: string): string[] {
  const file = join(root, 'versions.json')
  if (!existsSync(file)) return []
  const { versions } = JSON.parse(readFileSync(file, 'utf8')) as { versions: Array<{ id: string; frozen?: string }> }
  return [...versions].sort((a, b) => (b.frozen ?? '').localeCompare(a.frozen ?? '')).map((v) => v.id)
}

async function frozenContract(root: string, id: string, flag: string): Promise<Record<string, unknown>> {
  const known = frozenVersions(root)
  if (!known.includes(id))
    throw new UsageError(
      `${flag}: no frozen version ${JSON.stringify(id)} in versions.json (${known.length ? `it has ${known.join(', ')}` : 'it lists none'})`,
    )
  const file = join(root, snapshotFile(id))
  if (!existsSync(file))
    throw new UsageError(
      `${flag}: version ${id} has no contract snapshot ${snapshotFile(id)} (npm run docs:version writes it)`,
    )
  return (await loadSpec(file)).raw
}

async function run(): Promise<number> {
  try {
    let values: {
      base?: string | undefined
      'from-version'?: string | undefined
      'to-version'?: string | undefined
      'site-url'?: string | undefined
    }
    try {
      ;({ values } = parseArgs({
        options: {
          base: { type: 'string' },
          'from-version': { type: 'string' },
          'to-version': { type: 'string' },
          'site-url': { type: 'string' },
        },
        strict: true,
        allowPositionals: false,
      }))
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error))
    }
    const from = values['from-version']
    const to = values['to-version']
    if (values.base === undefined && from === undefined)
      throw new UsageError(
        '--base <git ref> is required (e.g. origin/main), or --from-version <id> to compare frozen versions',
      )
    if (values.base !== undefined && from !== undefined) throw new UsageError('give --base or --from-version, not both')
    if (to !== undefined && from === undefined) throw new UsageError('--to-version needs --from-version')

    const root = gitRoot(process.cwd())
    const current = await loadSpec(join(root, SPEC_FILE))
    // Links go to the reference pages that exist now: the current contract's routes.
    const routes = routeTable(transformTags(createContext(current)).flatMap((tag) => tag.operations))
    const siteUrl = (values['site-url'] ?? siteConfig.url).replace(/\/$/, '')
    const base =
      values.base !== undefined
        ? contractAtRef(root, values.base, SPEC_FILE)
        : await frozenContract(root, from ?? '', '--from-version')
    const head = to !== undefined ? await frozenContract(root, to, '--to-version') : current.raw
    const diff = pullRequestDiff({
      baseRef: values.base ?? `version ${from}`,
      ...(to !== undefined ? { headLabel: `version ${to}` } : {}),
      base,
      head,
      routes,
      siteUrl,
      // Accepted breaking changes are listed against the frozen version they break.
      since: from ?? frozenVersions(root)[0],
    })
    process.stdout.write(diff.markdown)
    return 0
  } catch (error) {
    if (!(error instanceof GitContractError || error instanceof SpecError || error instanceof UsageError)) throw error
    process.stderr.write(`api:diff: ${error.message}\n${error instanceof UsageError ? `${USAGE}\n` : ''}`)
    return 2
  }
}

process.exitCode = await run()
