/**
 * @module Links that open a prefilled issue on the project's repository: page feedback, a problem
 * in a snippet, a contract bug found by Try it. Pure (no DOM), so tests build the same URLs the
 * site does. No third-party script: the reader lands on the repository's own "new issue" form.
 */
import { siteConfig } from '../../site.config'

/** What every report names: the page, the section it is about, and the docs version read. */
export interface PageContext {
  /** The page's absolute URL, with the section's anchor when there is one. */
  url: string
  title: string
  /** The heading of the section, or the page's title for the page as a whole. */
  section: string
  version: string
}

/** Snippets longer than this are cut, so the URL stays within what the issue form accepts. */
export const SNIPPET_LIMIT = 1500

function issueUrl(title: string, body: string, label: string): string {
  const query = new URLSearchParams({ title, body, labels: label })
  return `${siteConfig.newIssue}?${query.toString()}`
}

const where = (page: PageContext) => [`Page: ${page.url}`, `Section: ${page.section}`, `Docs version: ${page.version}`]

/** A fence that no line of the snippet can close early. */
function fenced(text: string, language: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(longest + 1)
  return `${fence}${language}\n${text.replace(/\n$/, '')}\n${fence}`
}

export function pageFeedbackUrl(page: PageContext, helpful: boolean): string {
  const verdict = helpful ? 'helpful' : 'not helpful'
  const body = [
    ...where(page),
    `Helpful: ${helpful ? 'yes' : 'no'}`,
    '',
    helpful ? 'What helped:' : 'What was missing or wrong:',
    '',
  ].join('\n')
  return issueUrl(`Docs feedback: "${page.title}" was ${verdict}`, body, 'docs-feedback')
}

export function snippetProblemUrl(page: PageContext, snippet: string, language = ''): string {
  const cut = snippet.length > SNIPPET_LIMIT
  const text = cut ? `${snippet.slice(0, SNIPPET_LIMIT)}\n…` : snippet
  const body = [
    ...where(page),
    '',
    `Snippet${cut ? ` (first ${SNIPPET_LIMIT} characters)` : ''}:`,
    '',
    fenced(text, language),
    '',
    'What went wrong:',
    '',
  ].join('\n')
  return issueUrl(`Problem in a snippet: ${page.title} › ${page.section}`, body, 'docs-snippet')
}

export interface ContractMismatch {
  operationId: string
  /** `POST https://…/v1/apps`, as Try it sent it (no credentials: they travel in headers). */
  request: string
  status: number
  /** One line per problem, each starting with the JSON path of the value. */
  problems: string[]
}

export function contractBugUrl(page: PageContext, mismatch: ContractMismatch): string {
  const body = [
    ...where(page),
    `Operation: ${mismatch.operationId}`,
    `Request: ${mismatch.request}`,
    `Status: ${mismatch.status}`,
    '',
    'The answer differs from the documented response:',
    '',
    ...mismatch.problems.map((p) => `- ${p}`),
    '',
  ].join('\n')
  return issueUrl(
    `Contract bug: ${mismatch.operationId} answered ${mismatch.status} unlike the contract`,
    body,
    'contract-bug',
  )
}
