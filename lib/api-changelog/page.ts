/** @module Stage: the contract's history (lib/api-changelog) → pages/docs/api/changelog.mdx, plain Markdown. */
import Slugger from 'github-slugger'
import type { ChangeLine, OperationChanges, ReleaseNotes } from './releases.ts'
import { escapeMdx, frontMatter } from '../codegen/emit/mdx.ts'

export const CHANGELOG_PAGE = 'changelog'
/** Written after the build by scripts/postbuild.ts (lib/api-changelog/feed.ts). */
export const CHANGELOG_FEED = 'changelog.xml'
const SHOWN_MEMBERS = 6

/** The anchor of each release's heading, as the page's heading ids are made (github-slugger). */
export function releaseAnchors(releases: readonly ReleaseNotes[]): Map<string, string> {
  const slugger = new Slugger()
  return new Map(releases.map((r) => [r.id, slugger.slug(r.title)]))
}

function members(line: ChangeLine): string {
  if (line.members.length === 0) return ''
  const shown = line.members.slice(0, SHOWN_MEMBERS).map((m) => `\`${m}\``)
  const more = line.members.length - shown.length
  const list = `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`
  return line.members.length === 1 ? ` member ${list}` : ` members ${list}`
}

function renderLine(line: ChangeLine): string {
  const mark = line.breaking ? '**Breaking:** ' : ''
  const policy = line.policy ? ` (flagged breaking by the diff, additive under the [versioning policy](/docs/api#versioning): ${escapeMdx(line.policy)})` : ''
  // An accepted change's reason is in the contract's Versioning section; repeating it on every line would bury the page.
  const why = line.accepted
    ? ' (accepted without a new contract version, see [Versioning](/docs/api#versioning))'
    : line.policyBreaking ? ` (not flagged by the diff, breaking under the [versioning policy](/docs/api#versioning): ${escapeMdx(line.policyBreaking)})` : ''
  return `  - ${mark}${line.location}${members(line)}: ${line.what}${policy}${why}`
}

function operationItem(op: OperationChanges): string {
  const signature = `\`${op.method} ${op.path}\``
  const title = op.page ? `[${signature}](${op.page.route}) ${escapeMdx(op.page.summary)}` : signature
  const mark = op.breaking ? '**Breaking:** ' : ''
  return [`- ${mark}${title}`, ...op.lines.map(renderLine)].join('\n')
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

function renderRelease(release: ReleaseNotes): string {
  const parts = [`## ${release.title}`, '']
  const when = release.date ? `Frozen on ${release.date}. ` : 'Not yet in a frozen release. '
  if (release.baseline !== undefined) {
    parts.push(`${when}The first frozen contract, version \`${release.versions.to}\`: ${plural(release.baseline, 'operation')}, the starting point of this changelog.`)
    return parts.join('\n')
  }
  const counts = (['added', 'changed', 'removed'] as const).map((s) => `${release.operations.filter((o) => o.status === s).length} ${s}`).join(', ')
  const accepted = release.operations.filter((o) => o.breaking && o.changes.every((c) => !c.breaking || c.accepted)).length
  const acceptedNote = accepted === 0 ? '' : accepted === release.breaking ? ', all accepted without a new contract version' : `, ${accepted} of them accepted without a new contract version`
  const verdict = release.breaking === 0 ? 'none breaking' : `**${plural(release.breaking, 'operation')} with breaking changes**${acceptedNote}`
  parts.push(`${when}Compared with ${release.since ? `version ${release.since}` : 'the previous release'}; contract version \`${release.versions.from}\` → \`${release.versions.to}\`. Operations: ${counts}; ${verdict}.`)
  if (release.operations.length === 0) parts.push('', 'No changes to operations.')
  for (const [status, heading] of [['added', 'Added operations'], ['changed', 'Changed operations'], ['removed', 'Removed operations']] as const) {
    const ops = release.operations.filter((o) => o.status === status)
    if (ops.length > 0) parts.push('', `### ${heading}`, '', ops.map(operationItem).join('\n'))
  }
  return parts.join('\n')
}

export function renderChangelogPage(releases: readonly ReleaseNotes[], docsBase: string): string {
  const feed = `${docsBase}/${CHANGELOG_FEED}`
  return [
    frontMatter({ title: 'API changelog', description: 'What changed in the Ferry API contract in each release, newest first, breaking changes marked.', openapi: '#/info/version', feed }),
    '# API changelog',
    '',
    "What changed in the API contract in each release of these docs, newest first. Each frozen docs version keeps the contract it was released with (`openapi/versions/<id>.yaml`); a release lists the operations added, changed and removed since the one before it, and **Unreleased** lists what the current contract changes since the newest frozen one. The comparison is api-smart-diff's, so is the verdict on what is breaking, except where Ferry's [versioning policy](/docs/api#versioning) says a change is additive; such changes say why.",
    '',
    `Follow it in a feed reader: [Atom feed of the API changelog](${feed}). Each operation also has a feed of its own changes at \`${docsBase}/${CHANGELOG_PAGE}/<operationId>.xml\`, for example [the feed of \`createApp\`](${docsBase}/${CHANGELOG_PAGE}/createApp.xml). To compare any two frozen versions, run \`npm run api:diff -- --from-version <id> --to-version <id>\` in a checkout (see [Writing docs](/docs/writing-docs#api-changes-in-a-pull-request)).`,
    '',
    'Within `/v1` changes are additive. A breaking change needs a new contract version in `info.version`: a major bump (`1.4.0` → `2.0.0`), or a minor one while it is `0.x` (`0.3.1` → `0.4.0`); the repository\'s tests refuse a breaking change without it.',
    '',
    releases.map(renderRelease).join('\n\n'),
    '',
  ].join('\n')
}
