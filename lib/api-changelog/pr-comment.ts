/**
 * @module A pull request's API changes as a Markdown comment: the changelog's model (operations
 * added, changed and removed, each change's place and kind, breaking ones marked, Ferry's policy
 * verdicts and accepted breaking changes said as such) for the PR's contract against its base.
 */
import { diffContracts } from './changes.ts'
import { operationChanges, type ChangeLine, type OperationChanges, type RouteTable } from './releases.ts'

/** The first line of every comment, so a workflow can find and update its earlier comment. */
export const COMMENT_MARKER = '<!-- ferry-api-diff -->'
const SHOWN_MEMBERS = 8

export interface PullRequestDiffInput {
  /** What the base is, as the comment names it: a git ref, or `version 0.1`. */
  baseRef: string
  /** What the head is, when not the working tree's contract. */
  headLabel?: string
  base: Record<string, unknown>
  head: Record<string, unknown>
  /** The head contract's operation pages. */
  routes: RouteTable
  /** Absolute origin the reference is published at; page links are made absolute against it. */
  siteUrl: string
  /** The newest frozen docs version, whose accepted breaking changes apply. */
  since?: string | undefined
}

export interface PullRequestDiff {
  markdown: string
  operations: OperationChanges[]
  breaking: number
}

const infoVersion = (doc: Record<string, unknown>): string =>
  String((doc.info as Record<string, unknown> | undefined)?.version ?? '')
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

function members(line: ChangeLine): string {
  if (line.members.length === 0) return ''
  const shown = line.members.slice(0, SHOWN_MEMBERS).map((m) => `\`${m}\``)
  const more = line.members.length - shown.length
  return ` ${line.members.length === 1 ? 'member' : 'members'} ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`
}

function lineItem(line: ChangeLine): string {
  const mark = line.accepted ? '**Breaking (accepted):** ' : line.breaking ? '**Breaking:** ' : ''
  const note = line.accepted
    ? ` (listed in \`x-ferry-accepted-breaking-changes\`: ${line.accepted})`
    : line.policy
      ? ` (flagged breaking by the diff, additive under Ferry's versioning policy: ${line.policy})`
      : line.policyBreaking
        ? ` (breaking under Ferry's versioning policy: ${line.policyBreaking})`
        : ''
  return `  - ${mark}${line.location}${members(line)}: ${line.what}${note}`
}

function operationItem(op: OperationChanges, siteUrl: string): string {
  const signature = `\`${op.method} ${op.path}\``
  const title = op.page
    ? `[${signature}](${siteUrl}${op.page.route}) ${op.page.summary} (\`${op.page.operationId}\`)`
    : signature
  const accepted = op.breaking && op.changes.every((c) => !c.breaking || c.accepted)
  const mark = accepted ? '**Breaking (accepted):** ' : op.breaking ? '**Breaking:** ' : ''
  return [`- ${mark}${title}`, ...op.lines.map(lineItem)].join('\n')
}

export function pullRequestDiff(input: PullRequestDiffInput): PullRequestDiff {
  const operations = operationChanges(diffContracts(input.base, input.head, input.since), input.routes)
  const breakingOps = operations.filter((op) => op.breaking)
  const unaccepted = breakingOps.filter((op) => op.changes.some((c) => c.breaking && !c.accepted))
  const from = infoVersion(input.base)
  const to = infoVersion(input.head)
  const parts = [COMMENT_MARKER, '### API contract changes', '']
  const counts = (['added', 'changed', 'removed'] as const)
    .map((s) => `${operations.filter((o) => o.status === s).length} ${s}`)
    .join(', ')
  const verdict =
    breakingOps.length === 0
      ? 'none breaking'
      : `**${plural(breakingOps.length, 'operation')} with breaking changes**${unaccepted.length < breakingOps.length ? ` (${breakingOps.length - unaccepted.length} accepted)` : ''}`
  parts.push(
    `${input.headLabel ? `\`${input.headLabel}\` compared` : 'Compared'} with \`${input.baseRef}\`; contract version \`${from}\` → \`${to}\`. Operations: ${counts}; ${verdict}.`,
  )
  if (operations.length === 0) parts.push('', 'No changes to operations.')
  for (const [status, heading] of [
    ['added', 'Added operations'],
    ['changed', 'Changed operations'],
    ['removed', 'Removed operations'],
  ] as const) {
    const ops = operations.filter((o) => o.status === status)
    if (ops.length > 0)
      parts.push('', `#### ${heading}`, '', ops.map((op) => operationItem(op, input.siteUrl)).join('\n'))
  }
  return { markdown: `${parts.join('\n')}\n`, operations, breaking: breakingOps.length }
}
