/**
 * @module /llms.txt (https://llmstxt.org) and /llms-full.txt, built from the Markdown twins.
 * llms.txt lists every docs page, API page and post by its twin's absolute URL; llms-full.txt
 * holds the full Markdown of the current docs and the API reference, page after page.
 */
import type { Twin, TwinSection } from '../markdown-twins/twins.ts'

export interface LlmsSite {
  name: string
  /** Absolute origin without a trailing slash. */
  url: string
  tagline: string
  description: string
}

export interface LlmsLink {
  title: string
  /** Site-relative or absolute. */
  href: string
  description?: string
}

const absolute = (site: LlmsSite, href: string) => (/^https?:/.test(href) ? href : `${site.url}${href}`)
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim()

function entry(site: LlmsSite, link: LlmsLink): string {
  const title = oneLine(link.title).replace(/([[\]])/g, '\\$1')
  const description = link.description ? oneLine(link.description) : ''
  return `- [${title}](${absolute(site, link.href)})${description ? `: ${description}` : ''}`
}

const twinLink = (twin: Twin): LlmsLink => ({ title: twin.title, href: twin.path, description: twin.description })
const inSection = (twins: readonly Twin[], section: TwinSection) => twins.filter((t) => t.section === section)

export const LLMS_FULL_PATH = '/llms-full.txt'

/**
 * `# Name`, a `>` summary, a note on what the links are, then the sections Docs, API reference,
 * Blog and Optional (`optional` first, then frozen docs versions).
 */
export function buildLlmsTxt(twins: readonly Twin[], site: LlmsSite, optional: readonly LlmsLink[]): string {
  const frozen = inSection(twins, 'frozen').map((t) => ({
    ...twinLink(t),
    title: `Docs ${t.route.split('/')[2]} (frozen): ${t.title}`,
  }))
  const sections: [string, LlmsLink[]][] = [
    ['Docs', inSection(twins, 'docs').map(twinLink)],
    ['API reference', inSection(twins, 'api').map(twinLink)],
    ['Blog', inSection(twins, 'blog').map(twinLink)],
    ['Optional', [...optional, ...frozen]],
  ]
  const lines = [
    `# ${site.name}`,
    '',
    `> ${oneLine(`${site.name}: ${site.tagline}. ${site.description}`)}`,
    '',
    `Every link below is the Markdown version of a page of ${site.url}; drop the \`.md\` for the HTML page. [${LLMS_FULL_PATH.slice(1)}](${site.url}${LLMS_FULL_PATH}) has the current docs and the API reference in one file. Docs under \`/docs/<version>/\` are frozen older versions.`,
  ]
  for (const [title, links] of sections) {
    if (links.length === 0) continue
    lines.push('', `## ${title}`, '', ...links.map((l) => entry(site, l)))
  }
  return `${lines.join('\n')}\n`
}

const RULE = '='.repeat(80)

/** The current docs, then the API reference, each page headed by a separator block with its URLs. */
export function buildLlmsFull(twins: readonly Twin[], site: LlmsSite): string {
  const pages = [...inSection(twins, 'docs'), ...inSection(twins, 'api')]
  const head = [
    `# ${site.name} documentation and API reference`,
    '',
    `> ${oneLine(`${site.name}: ${site.tagline}. ${site.description}`)}`,
    '',
    `${pages.length} pages of ${site.url}: the current docs in sidebar order, then the API reference generated from the OpenAPI contract. Each page starts after a block of \`=\` lines that gives its title and URLs.`,
  ].join('\n')
  const bodies = pages.map((t) =>
    [
      RULE,
      `Page: ${oneLine(t.title)}`,
      `URL: ${site.url}${t.route}`,
      `Markdown: ${site.url}${t.path}`,
      RULE,
      '',
      t.markdown.trimEnd(),
    ].join('\n'),
  )
  return `${[head, ...bodies].join('\n\n')}\n`
}
