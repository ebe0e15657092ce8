import type { ReactNode } from 'react'

/**
 * A preview of release notes in the Markdown most changelogs use: headings, paragraphs, `-`/`*`
 * lists, `code`, **strong**, *emphasis* and http(s) links. Built as React elements from the text,
 * never as HTML, so nothing typed can run in the page; anything else shows as written.
 */
export function MarkdownPreview({ source }: { source: string }) {
  const blocks = source
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((b) => b.trim())
    .filter(Boolean)
  if (!blocks.length) return <p className="ferry-muted">Nothing to preview yet.</p>
  return <>{blocks.flatMap((block, i) => renderBlock(block, i))}</>
}

function renderBlock(block: string, key: number): ReactNode[] {
  const lines = block.split('\n')
  const out: ReactNode[] = []
  let items: string[] = []
  let text: string[] = []
  const flush = () => {
    if (text.length) out.push(<p key={`${key}-${out.length}`}>{inline(text.join(' '))}</p>)
    if (items.length)
      out.push(
        <ul key={`${key}-${out.length}`}>
          {items.map((it, j) => (
            <li key={j}>{inline(it)}</li>
          ))}
        </ul>,
      )
    text = []
    items = []
  }
  for (const line of lines) {
    const heading = /^(#{1,6})\s+(.*)$/.exec(line)
    const item = /^\s*[-*+]\s+(.*)$/.exec(line)
    if (heading) {
      flush()
      // Release notes sit under the console's own headings: their levels start below them.
      out.push(
        <p
          key={`${key}-${out.length}`}
          className="ferry-md-heading"
          role="heading"
          aria-level={Math.min(6, 3 + (heading[1]?.length ?? 1))}
        >
          {inline(heading[2] ?? '')}
        </p>,
      )
    } else if (item) {
      if (text.length) flush()
      items.push(item[1] ?? '')
    } else if (items.length && /^\s+\S/.test(line)) {
      items[items.length - 1] += ` ${line.trim()}`
    } else {
      if (items.length) flush()
      text.push(line)
    }
  }
  flush()
  return out
}

const INLINE = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*]+)\*|_([^_]+)_|\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g

function inline(text: string): ReactNode[] {
  const out: ReactNode[] = []
  let last = 0
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(text.slice(last, m.index))
    const k = out.length
    if (m[1] !== undefined) out.push(<code key={k}>{m[1]}</code>)
    else if (m[2] !== undefined) out.push(<strong key={k}>{m[2]}</strong>)
    else if (m[3] !== undefined || m[4] !== undefined) out.push(<em key={k}>{m[3] ?? m[4]}</em>)
    else
      out.push(
        <a key={k} href={m[6]} rel="noreferrer noopener" target="_blank">
          {m[5]}
        </a>,
      )
    last = m.index + m[0].length
  }
  if (last < text.length) out.push(text.slice(last))
  return out
}
