/**
 * Every external link in a guide is listed in `site.config.ts` (`references`), the one place for
 * external URLs; guides write them as Markdown links so their Markdown twins keep them.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { guidePages } from '../../lib/docs-runner/pages.ts'
import { references } from '../../site.config.ts'

const root = join(import.meta.dirname, '..', '..')

/** Markdown links and autolinks outside code: `[text](https://…)` and `<https://…>`. */
function externalLinks(source: string): Array<{ line: number; url: string }> {
  const found: Array<{ line: number; url: string }> = []
  let fenced = false
  source.split('\n').forEach((text, i) => {
    if (/^\s*(```|~~~)/.test(text)) fenced = !fenced
    if (fenced) return
    const prose = text.replace(/`[^`]*`/g, '')
    for (const m of prose.matchAll(/\]\((https?:\/\/[^)\s]+)\)|<(https?:\/\/[^>\s]+)>/g))
      found.push({ line: i + 1, url: m[1] ?? m[2] ?? '' })
  })
  return found
}

test('external links in the guides are all listed in site.config.ts references', () => {
  const listed = new Set<string>(Object.values(references).map((r) => r.href))
  const unlisted = guidePages(root).flatMap((page) =>
    externalLinks(readFileSync(join(root, page), 'utf8'))
      .filter((l) => !listed.has(l.url))
      .map((l) => `${page}:${l.line}: ${l.url}`),
  )
  assert.deepEqual(unlisted, [], 'add these to references in site.config.ts (or link them from there)')
})

test('the link scan sees Markdown links and autolinks, not URLs in code', () => {
  const source =
    'See [a](https://a.test/x) and <https://b.test>.\n`[c](https://c.test)`\n```md\n[d](https://d.test)\n```\n'
  assert.deepEqual(externalLinks(source), [
    { line: 1, url: 'https://a.test/x' },
    { line: 1, url: 'https://b.test' },
  ])
})
