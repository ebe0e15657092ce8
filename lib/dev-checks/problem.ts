/** @module A problem `npm run dev` shows for a page, and how the overlay prints it. */

export interface PageProblem {
  /** 1-based, in the page's source. */
  line: number
  column: number
  message: string
  /** Files whose creation fixes the problem (a link's missing page): webpack rechecks the page when one appears. */
  fixedBy?: string[]
}

/** One line per problem, each starting `pages/…mdx:LINE:COL`, so terminals and editors can jump to it. */
export function formatProblems(file: string, problems: readonly PageProblem[]): string {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`
  return [`${count} in ${file}:`, ...problems.map((p) => `${file}:${p.line}:${p.column}  ${p.message}`)].join('\n')
}
