/**
 * @module One MDX page → clean Markdown: no front matter, no import/export lines, no comments,
 * every JSX element rendered by jsx-components.ts, site links made absolute. Parsed with the
 * same MDX parser Nextra compiles with, so whatever builds converts or fails with file:line.
 */
import type { Code, Heading, Root, RootContent } from 'mdast'
import type {} from 'mdast-util-mdx'
import remarkFrontmatter from 'remark-frontmatter'
import remarkGfm from 'remark-gfm'
import remarkMdx from 'remark-mdx'
import remarkParse from 'remark-parse'
import remarkStringify, { type Options as StringifyOptions } from 'remark-stringify'
import { unified } from 'unified'
import type { BlogPost } from '../blog/collections.ts'
import { COMPONENTS, type JsxElement, type RenderState, type Renderer } from './jsx-components.ts'
import { type LinkTarget, absoluteUrl } from './site-links.ts'
import { MarkdownTwinError, twinError } from './twin-error.ts'

export interface ConvertOptions extends LinkTarget {
  /** Path shown in errors, relative to the repository root. */
  file: string
  /** The page title; becomes the H1 when the page has none. */
  title: string
  post?: BlogPost
}

const STRINGIFY: StringifyOptions = {
  bullet: '-',
  fences: true,
  listItemIndent: 'one',
  rule: '-',
  emphasis: '_',
  strong: '*',
}

/** Code fence meta a reader can use (`filename="…"`); display words such as `runnable` or `{1,3}` are dropped. */
export function cleanCodeMeta(meta: string | null | undefined): string | null {
  const kept = [...(meta ?? '').matchAll(/\b(?:filename|title)=("[^"]*"|'[^']*')/g)].map(
    (m) => `filename=${m[1]!.replace(/^'|'$/g, '"')}`,
  )
  return kept.length ? kept.join(' ') : null
}

const COMMENT_ONLY = /^\s*\/\*[\s\S]*?\*\/\s*$/

/**
 * Nextra's `## Title [#id]` gives a heading a fixed id that links rely on (problem `type` URLs
 * point at troubleshooting#validation). Markdown has no such syntax; the twin keeps the id in the
 * `{#id}` heading-attribute form (Pandoc, Markdown Extra, markdown-it-attrs) instead of an escaped `\[#id]`.
 */
function customHeadingId(children: Heading['children']): Heading['children'] {
  const last = children.at(-1)
  const match = last?.type === 'text' ? /\s*\[#([^\]]+)\]$/.exec(last.value) : null
  if (!last || last.type !== 'text' || !match) return children
  return [...children.slice(0, -1), { ...last, value: `${last.value.slice(0, match.index)} {#${match[1]}}` }]
}

function transform(nodes: readonly RootContent[], r: Renderer): RootContent[] {
  const out: RootContent[] = []
  for (const node of nodes) {
    switch (node.type) {
      case 'yaml':
      case 'mdxjsEsm':
        continue
      case 'mdxFlowExpression':
      case 'mdxTextExpression':
        if (COMMENT_ONLY.test(node.value)) continue
        throw twinError(
          r.state.file,
          node.position,
          `the expression {${node.value.trim()}} has no Markdown rendering; write the text in Markdown`,
        )
      case 'mdxJsxFlowElement':
      case 'mdxJsxTextElement':
        out.push(...renderElement(node, r))
        continue
      case 'heading':
        r.state.headingDepth = node.depth
        out.push({ ...node, children: customHeadingId(transform(node.children, r) as Heading['children']) })
        continue
      case 'code':
        out.push({ ...node, meta: cleanCodeMeta(node.meta) } satisfies Code)
        continue
    }
    if ('children' in node) out.push({ ...node, children: transform(node.children as RootContent[], r) } as RootContent)
    else out.push(node)
  }
  return out
}

/** Runs after the components rendered, so links they create (Cards) are made absolute too. */
function absolutizeLinks(nodes: readonly RootContent[], links: LinkTarget): void {
  for (const node of nodes) {
    if (node.type === 'link' || node.type === 'image' || node.type === 'definition')
      node.url = absoluteUrl(node.url, links)
    if ('children' in node) absolutizeLinks(node.children as RootContent[], links)
  }
}

function renderElement(element: JsxElement, r: Renderer): RootContent[] {
  const name = element.name ?? ''
  if (name === '') return r.children(element.children as RootContent[])
  const render = COMPONENTS[name]
  if (!render) {
    throw twinError(
      r.state.file,
      element.position,
      `<${name}> has no Markdown rendering; add one to lib/markdown-twins/jsx-components.ts (known: ${Object.keys(COMPONENTS).join(', ')})`,
    )
  }
  return render(element, r)
}

export function parseMdx(source: string, file: string): Root {
  try {
    return unified().use(remarkParse).use(remarkMdx).use(remarkGfm).use(remarkFrontmatter).parse(source)
  } catch (error) {
    const place = error as { line?: number; column?: number; reason?: string }
    throw new MarkdownTwinError(
      file,
      place.line ?? 1,
      place.column ?? 1,
      `not valid MDX: ${place.reason ?? (error as Error).message}`,
      { cause: error },
    )
  }
}

/** Prints a Markdown tree; an MDX node left in it would throw here, so none can leak. Tables are not padded: padding doubled the API twins' size. */
export function stringifyMarkdown(tree: Root): string {
  return unified().use(remarkGfm, { tablePipeAlign: false }).use(remarkStringify, STRINGIFY).stringify(tree)
}

/** Markdown (not MDX) with site links made absolute, printed the way every twin is printed. */
export function normaliseMarkdown(markdown: string, links: LinkTarget): string {
  const tree = unified().use(remarkParse).use(remarkGfm).parse(markdown)
  absolutizeLinks(tree.children, links)
  return stringifyMarkdown(tree)
}

export function mdxToMarkdown(source: string, options: ConvertOptions): string {
  const tree = parseMdx(source, options.file)
  const state: RenderState = { file: options.file, post: options.post, headingDepth: 1 }
  const r: Renderer = { state, children: (nodes) => transform(nodes, r) }
  const children = transform(tree.children, r)
  absolutizeLinks(children, options)
  const first = children[0]
  if (!(first?.type === 'heading' && first.depth === 1))
    children.unshift({ type: 'heading', depth: 1, children: [{ type: 'text', value: options.title }] })
  return stringifyMarkdown({ type: 'root', children })
}
