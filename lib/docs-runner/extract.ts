/**
 * @module Code blocks of a Markdown/MDX page, in order, with what their fence meta says about them.
 *
 * The convention (documented in pages/docs/getting-started/local-development.mdx):
 * - ```bash runnable         run in bash against a fresh server, in page order
 * - ```bash runnable=server  the page starts the server here (`[VAR=value …] npm run server`)
 * - ```json output           what the runnable block just before it prints (also ```text output)
 * - file="compose.yaml"      the block shows that repository file and must equal it
 * Every other block is syntax-checked by its language.
 */

export interface CodeBlock {
  /** Page path relative to the repository root. */
  page: string
  /** 1-based line of the opening fence. */
  line: number
  lang: string
  meta: string
  code: string
  runnable: boolean
  /** `runnable=server`: a block that starts the server rather than running in bash. */
  startsServer: boolean
  output: boolean
  /** Repository file the block must reproduce (`file="…"`). */
  file?: string
  /** For runnable blocks: the `output` block that directly follows, if any. */
  expected?: CodeBlock
}

/** A page whose blocks cannot be read; the message starts with `page:line:`. */
export class BlockError extends Error {
  readonly page: string
  readonly line: number
  constructor(message: string, page: string, line: number) {
    super(`${page}:${line}: ${message}`)
    this.page = page
    this.line = line
  }
}

const FENCE = /^(\s*)(`{3,}|~{3,})([^\s`]*)\s*(.*)$/

function metaWord(meta: string, word: string): string | boolean {
  const m = new RegExp(`(?:^|\\s)${word}(?:=("[^"]*"|\\S+))?(?=\\s|$)`).exec(meta)
  if (!m) return false
  return m[1] === undefined ? true : m[1].replace(/^"|"$/g, '')
}

/** Every fenced block of `source`, with runnable blocks paired to the output block after them. */
export function extractBlocks(page: string, source: string): CodeBlock[] {
  const lines = source.split('\n')
  const blocks: CodeBlock[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] ?? '')
    if (!open) continue
    const [, indent = '', fence = '', lang = '', meta = ''] = open
    const body: string[] = []
    let j = i + 1
    for (; j < lines.length; j++) {
      const text = lines[j] ?? ''
      if (text.trim().startsWith(fence) && text.trim().replace(/[`~]/g, '') === '') break
      body.push(text.startsWith(indent) ? text.slice(indent.length) : text.trimStart())
    }
    if (j >= lines.length) throw new BlockError('code fence is never closed', page, i + 1)
    const runnable = metaWord(meta, 'runnable')
    const file = metaWord(meta, 'file')
    blocks.push({
      page,
      line: i + 1,
      lang: lang.toLowerCase(),
      meta: meta.trim(),
      code: body.join('\n'),
      runnable: runnable !== false,
      startsServer: runnable === 'server',
      output: metaWord(meta, 'output') === true,
      ...(typeof file === 'string' ? { file } : {}),
    })
    i = j
  }
  blocks.forEach((block, n) => {
    const next = blocks[n + 1]
    if (block.runnable && next?.output) block.expected = next
  })
  const orphan = blocks.find((b, n) => b.output && !blocks[n - 1]?.runnable)
  if (orphan) throw new BlockError('an output block must directly follow a runnable block', page, orphan.line)
  return blocks
}
