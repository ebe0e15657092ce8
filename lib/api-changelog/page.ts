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

/** The policy's reasons are given once, in the release's summary; a line only says which way it went. */
function renderLine(line: ChangeLine): string {
  const mark = line.breaking ? (line.accepted ? '**Breaking, accepted:** ' : '**Breaking:** ') : ''
  const note = line.policy ? ' (additive under the policy)' : line.policyBreaking ? ' (breaking under the policy)' : ''
  return `  - ${mark}${line.location}${members(line)}: ${line.what}${note}`
}

/** How many times each text occurs, most frequent first, as "text (n)" items. */
function tally(texts: string[], show: (text: string) => string, unit: string): string[] {
  const counts = new Map<string, number>()
  for (const t of texts) counts.set(t, (counts.get(t) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1]).map(([t, n]) => `${show(t)}${n > 1 ? ` (${n} ${unit})` : ''}`)
}

/** The release's summary: counts, what is breaking and what the policy did with it, in one voice with the gate. */
function summary(release: ReleaseNotes): string[] {
  const lines = release.operations.flatMap((o) => o.lines)
  const count = (s: 'added' | 'changed' | 'removed') => release.operations.filter((o) => o.status === s).length
  const { from, to } = release.versions
  const version =
    from === undefined || from === to
      ? `\`info.version\` stays \`${to}\``
      : `\`info.version\` goes from \`${from}\` to \`${to}\``
  const out = [
    `Compared with ${release.since ? `the ${release.since} docs` : 'the previous release'}: ${plural(count('added'), 'operation')} added, ${count('changed')} changed, ${count('removed') || 'none'} removed; ${version}.`,
  ]
  const breaking = lines.filter((l) => l.breaking)
  if (breaking.length === 0) {
    out.push('', 'Nothing is breaking.')
  } else {
    const accepted = breaking.filter((l) => l.accepted)
    const refused = breaking.length - accepted.length
    out.push(
      '',
      `**${plural(release.breaking, 'operation')} with breaking changes, ${refused === 0 ? 'all accepted by the policy' : `${plural(refused, 'change')} not accepted`}:**`,
      '',
    )
    out.push(
      ...tally(
        breaking.map((l) => JSON.stringify([`${l.location}: ${l.what}`, l.accepted ?? ''])),
        (t) => {
          const [what, reason] = JSON.parse(t) as [string, string]
          return `- ${escapeMdx(what)}${reason ? `, accepted: ${escapeMdx(reason)}` : ''}`
        },
        'operations',
      ),
    )
    out.push(
      '',
      refused === 0
        ? `Each is a break made on purpose, listed in the contract's \`x-ferry-accepted-breaking-changes\` (see [Versioning](/docs/api#versioning)); the breaking-change gate lets listed breaks through without a new contract version and refuses any other.`
        : `${plural(refused, 'breaking change')} ${refused === 1 ? 'is' : 'are'} not listed as accepted: the breaking-change gate refuses ${refused === 1 ? 'it' : 'them'} until \`info.version\` gets a new major version (minor while 0.x).`,
    )
  }
  const additive = lines.filter((l) => l.policy)
  if (additive.length > 0) {
    out.push(
      '',
      `The diff also flags changes that Ferry's [versioning policy](/docs/api#versioning) counts as additive, marked "additive under the policy" below:`,
      '',
    )
    out.push(
      ...tally(
        additive.map((l) => l.policy ?? ''),
        (t) => `- ${escapeMdx(t)}`,
        'changes',
      ),
    )
  }
  return out
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
    parts.push(
      `${when}The first frozen contract, version \`${release.versions.to}\`: ${plural(release.baseline, 'operation')}, the starting point of this changelog.`,
    )
    return parts.join('\n')
  }
  parts.push(`${when}${summary(release).join('\n')}`)
  if (release.operations.length === 0) parts.push('', 'No changes to operations.')
  for (const [status, heading] of [
    ['added', 'Added operations'],
    ['changed', 'Changed operations'],
    ['removed', 'Removed operations'],
  ] as const) {
    const ops = release.operations.filter((o) => o.status === status)
    if (ops.length > 0) parts.push('', `### ${heading}`, '', ops.map(operationItem).join('\n'))
  }
  return parts.join('\n')
}

export function renderChangelogPage(releases: readonly ReleaseNotes[], docsBase: string): string {
  const feed = `${docsBase}/${CHANGELOG_FEED}`
  return [
    frontMatter({
      title: 'API changelog',
      description: 'What changed in the Ferry API contract in each release, newest first, breaking changes marked.',
      openapi: '#/info/version',
      feed,
    }),
    '# API changelog',
    '',
    "What changed in the API contract in each release of these docs, newest first. Each frozen docs version keeps the contract it was released with (`openapi/versions/<id>.yaml`); a release lists the operations added, changed and removed since the one before it, and **Unreleased** lists what the current contract changes since the newest frozen one. The comparison is api-smart-diff's, so is the verdict on what is breaking, except where Ferry's [versioning policy](/docs/api#versioning) says a change is additive; such changes say why.",
    '',
    `Follow it in a feed reader: [Atom feed of the API changelog](${feed}). Each operation also has a feed of its own changes at \`${docsBase}/${CHANGELOG_PAGE}/<operationId>.xml\`, for example [the feed of \`createApp\`](${docsBase}/${CHANGELOG_PAGE}/createApp.xml). To compare any two frozen versions, run \`npm run api:diff -- --from-version <id> --to-version <id>\` in a checkout (see [Writing docs](/docs/writing-docs#api-changes-in-a-pull-request)).`,
    '',
    "Within `/v1` changes are additive. A breaking change needs a new contract version in `info.version`: a major bump (`1.4.0` → `2.0.0`), or a minor one while it is `0.x` (`0.3.1` → `0.4.0`); the repository's tests refuse a breaking change without it.",
    '',
    releases.map(renderRelease).join('\n\n'),
    '',
  ].join('\n')
}
