/** @module Writes /llms.txt and /llms-full.txt into the static export. */
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { DOWNLOADS } from '../codegen/emit/mdx.ts'
import type { Twin } from '../markdown-twins/twins.ts'
import { LLMS_FULL_PATH, type LlmsLink, type LlmsSite, buildLlmsFull, buildLlmsTxt } from './llms-txt.ts'

/** Secondary files a reader may skip: the one-file docs, the contract downloads, the blog feeds. */
export function optionalLinks(): LlmsLink[] {
  return [
    {
      title: 'Docs and API reference in one file',
      href: LLMS_FULL_PATH,
      description: 'The full Markdown of every current docs page and API reference page.',
    },
    ...DOWNLOADS.map((d) => ({
      title: d.label,
      href: d.href,
      description: 'The API contract the reference is generated from.',
    })),
    { title: 'Blog feed (RSS)', href: '/blog/rss.xml', description: 'Every post, newest first.' },
    { title: 'Blog feed (Atom)', href: '/blog/atom.xml', description: 'Every post, newest first.' },
  ]
}

/** @returns the written files' sizes in bytes, for the build log. */
export function writeLlmsFiles(outDir: string, twins: readonly Twin[], site: LlmsSite): { llms: number; full: number } {
  const llms = buildLlmsTxt(twins, site, optionalLinks())
  const full = buildLlmsFull(twins, site)
  writeFileSync(path.join(outDir, 'llms.txt'), llms)
  writeFileSync(path.join(outDir, LLMS_FULL_PATH.slice(1)), full)
  return { llms: Buffer.byteLength(llms), full: Buffer.byteLength(full) }
}
