/**
 * @module The line a page that starts a server says right after its last command. Every guide starts
 * its own server on port 8080, so a reader who follows guides one after another stops each page's
 * server before the next page starts one; the runner stops it at the same point.
 */
import type { CodeBlock } from './extract.ts'

export const STOP_SERVER_LINE =
  'Stop the server now (Ctrl+C in its terminal): the next guide starts its own on port 8080.'

/** The 1-based line of a block's closing fence. */
function closingLine(block: CodeBlock): number {
  return block.line + (block.code === '' ? 0 : block.code.split('\n').length) + 1
}

/** Why `source` (the page's text) lacks its stop line; `undefined` when it starts no server or has the line in place. */
export function missingStopLine(source: string, blocks: readonly CodeBlock[]): string | undefined {
  const start = blocks.find((b) => b.startsServer)
  const last = blocks.filter((b) => b.runnable).at(-1)
  if (!start || !last) return undefined
  const end = closingLine(last.expected ?? last)
  const next = source
    .split('\n')
    .slice(end)
    .find((l) => l.trim() !== '')
  if (next?.trim() === STOP_SERVER_LINE) return undefined
  return `${start.page}:${end}: the page starts a server (line ${start.line}); right after its last command, say "${STOP_SERVER_LINE}" (writing-docs.mdx, a page's own folder)`
}
