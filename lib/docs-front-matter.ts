/**
 * @module What a docs page's front matter may say: the fields the theme and the Markdown twins
 * read (`title`, `description`), the search opt-out, the search keywords and the frozen version's id. Checked by the
 * build (lib/markdown-twins/docs-pages.ts) and by `npm run dev` (lib/dev-checks).
 */

export interface DocsFrontMatterProblem {
  field: string
  message: string
}

const FIELDS: Record<string, (value: unknown) => string | undefined> = {
  title: (v) =>
    typeof v === 'string' && v.trim() ? undefined : `must be a non-empty string, got ${JSON.stringify(v)}`,
  description: (v) =>
    typeof v === 'string' && v.trim() ? undefined : `must be a non-empty string, got ${JSON.stringify(v)}`,
  searchable: (v) => (typeof v === 'boolean' ? undefined : `must be true or false, got ${JSON.stringify(v)}`),
  keywords: (v) =>
    Array.isArray(v) && v.length > 0 && v.every((k) => typeof k === 'string' && k.trim())
      ? undefined
      : `must be a list of words or names the page is the place for (searches for them rank it like its title), got ${JSON.stringify(v)}`,
  docsVersion: (v) =>
    typeof v === 'string' ? undefined : `must be a quoted version id such as "1.0", got ${JSON.stringify(v)}`,
}

/** Problems with the parsed front matter of a page under pages/docs/; empty when it is fine. Other keys are left to Nextra. */
export function docsFrontMatterProblems(data: unknown): DocsFrontMatterProblem[] {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return [{ field: '(root)', message: 'front matter must be a YAML mapping' }]
  return Object.entries(data).flatMap(([field, value]) => {
    const message = FIELDS[field]?.(value)
    return message ? [{ field, message }] : []
  })
}
