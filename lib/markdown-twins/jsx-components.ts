/**
 * @module Markdown renderings of the JSX a page may contain: Nextra's components (Callout, Tabs,
 * Steps, Cards, FileTree, Bleed), the blog's PostHeader, and plain HTML elements. A component
 * missing here fails the twin build with file:line (see mdx-to-markdown.ts): add it here.
 */
import type { BlockContent, Heading, ListItem, Paragraph, PhrasingContent, RootContent } from 'mdast'
import type { MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx-jsx'
import { findAuthor } from '../blog/authors.ts'
import { type BlogPost, formatDate, formatReadingTime } from '../blog/collections.ts'
import { findTag } from '../blog/tags.ts'
import { type QuickstartTiming, quickstartTiming, timingParts } from '../quickstart-timings.ts'
import { twinError } from './twin-error.ts'

export type JsxElement = MdxJsxFlowElement | MdxJsxTextElement

export interface RenderState {
  file: string
  /** Set when the page is a blog post; PostHeader renders it. */
  post?: BlogPost
  /** Depth of the last heading passed, so tab sections nest under it. */
  headingDepth: number
}

export interface Renderer {
  state: RenderState
  /** Renders children (JSX inside them included) to Markdown nodes. */
  children(nodes: readonly RootContent[]): RootContent[]
}

type ComponentRenderer = (element: JsxElement, r: Renderer) => RootContent[]

/** Reads a JSX attribute: a string, `true` for a bare attribute, or the value of a static `{…}` expression. */
export function attribute(element: JsxElement, name: string, file: string): unknown {
  const attr = element.attributes.find((a) => a.type === 'mdxJsxAttribute' && a.name === name)
  if (!attr || attr.type !== 'mdxJsxAttribute') return undefined
  if (attr.value === null || attr.value === undefined) return true
  if (typeof attr.value === 'string') return attr.value
  const program = attr.value.data?.estree
  const statement = program?.body[0]
  if (!statement || statement.type !== 'ExpressionStatement') {
    throw twinError(file, element.position, `<${element.name}> attribute ${name}={${attr.value.value}} is not a value`)
  }
  try {
    return staticValue(statement.expression as unknown as EstreeNode)
  } catch (error) {
    throw twinError(
      file,
      element.position,
      `<${element.name}> attribute ${name}={${attr.value.value}}: ${(error as Error).message}`,
      error,
    )
  }
}

interface EstreeNode {
  type: string
  [key: string]: unknown
}

/** Literals, arrays and plain objects only: a twin is built without running the page's code. */
function staticValue(node: EstreeNode): unknown {
  switch (node.type) {
    case 'Literal':
      return node.value
    case 'TemplateLiteral':
      if ((node.expressions as unknown[]).length === 0)
        return (node.quasis as { value: { cooked: string } }[])[0]!.value.cooked
      break
    case 'ArrayExpression':
      return (node.elements as EstreeNode[]).map(staticValue)
    case 'ObjectExpression':
      return Object.fromEntries(
        (node.properties as EstreeNode[]).map((p) => {
          const key = p.key as EstreeNode
          if (p.type !== 'Property' || p.computed) throw new Error('only plain object properties can be read')
          return [key.type === 'Identifier' ? key.name : key.value, staticValue(p.value as EstreeNode)]
        }),
      )
    case 'UnaryExpression':
      if (node.operator === '-') return -(staticValue(node.argument as EstreeNode) as number)
  }
  throw new Error(`only literal values can be rendered to Markdown, not ${node.type}`)
}

function stringAttribute(element: JsxElement, name: string, file: string): string | undefined {
  const value = attribute(element, name, file)
  if (value === undefined) return undefined
  if (typeof value !== 'string')
    throw twinError(file, element.position, `<${element.name}> attribute ${name} must be a string`)
  return value
}

const text = (value: string): PhrasingContent => ({ type: 'text', value })
const paragraph = (children: PhrasingContent[]): Paragraph => ({ type: 'paragraph', children })

const PHRASING = new Set([
  'text',
  'emphasis',
  'strong',
  'delete',
  'inlineCode',
  'break',
  'link',
  'linkReference',
  'image',
  'imageReference',
  'footnoteReference',
  'html',
])

/** Wraps runs of inline nodes in paragraphs, for components whose children were written inline. */
export function asBlocks(nodes: RootContent[]): RootContent[] {
  const out: RootContent[] = []
  let run: PhrasingContent[] = []
  const flush = () => {
    if (run.some((n) => n.type !== 'text' || n.value.trim() !== '')) out.push(paragraph(run))
    run = []
  }
  for (const node of nodes) {
    if (PHRASING.has(node.type)) run.push(node as PhrasingContent)
    else {
      flush()
      out.push(node)
    }
  }
  flush()
  return out
}

function plainText(nodes: readonly RootContent[]): string {
  return nodes
    .map((n) =>
      'value' in n && typeof n.value === 'string'
        ? n.value
        : 'children' in n
          ? plainText(n.children as RootContent[])
          : '',
    )
    .join('')
}

/** The elements among `children`, which must all be one of `names` (whitespace aside). */
function childElements(element: JsxElement, names: readonly string[], file: string): JsxElement[] {
  const found: JsxElement[] = []
  for (const child of element.children as RootContent[]) {
    if (child.type === 'mdxJsxFlowElement' || child.type === 'mdxJsxTextElement') {
      if (!names.includes(child.name ?? ''))
        throw twinError(
          file,
          child.position,
          `<${element.name}> may only contain ${names.map((n) => `<${n}>`).join(' or ')}, found <${child.name ?? ''}>`,
        )
      found.push(child)
    } else if (child.type === 'paragraph') {
      // Children written on one line (`<Tabs.Tab>…</Tabs.Tab>`) arrive wrapped in a paragraph.
      found.push(...childElements({ ...element, children: child.children } as JsxElement, names, file))
    } else if (!(child.type === 'text' && child.value.trim() === '') && child.type !== 'mdxFlowExpression') {
      throw twinError(
        file,
        child.position,
        `<${element.name}> may only contain ${names.map((n) => `<${n}>`).join(' or ')}, found ${child.type}`,
      )
    }
  }
  return found
}

const CALLOUT_LABELS: Record<string, string> = {
  default: 'Note',
  info: 'Info',
  warning: 'Warning',
  error: 'Error',
  important: 'Important',
}

/** A labelled blockquote: `> **Warning:** …`. */
const callout: ComponentRenderer = (element, r) => {
  const type = stringAttribute(element, 'type', r.state.file) ?? 'default'
  const label = CALLOUT_LABELS[type]
  if (!label)
    throw twinError(
      r.state.file,
      element.position,
      `<Callout type="${type}"> is not a Nextra callout type (${Object.keys(CALLOUT_LABELS).join(', ')})`,
    )
  const body = asBlocks(r.children(element.children as RootContent[]))
  const strong: PhrasingContent = { type: 'strong', children: [text(`${label}:`)] }
  const first = body[0]
  if (first?.type === 'paragraph') first.children.unshift(strong, text(' '))
  else body.unshift(paragraph([strong]))
  return [{ type: 'blockquote', children: body as BlockContent[] }]
}

/** One section per tab, headed by the tab's label one level below the heading the tabs sit under. */
const tabs: ComponentRenderer = (element, r) => {
  const file = r.state.file
  const items = attribute(element, 'items', file)
  if (!Array.isArray(items) || !items.every((i) => typeof i === 'string'))
    throw twinError(file, element.position, '<Tabs> needs items={[…]}: a list of tab labels')
  const panes = childElements(element, ['Tabs.Tab', 'Tab'], file)
  if (panes.length !== items.length)
    throw twinError(file, element.position, `<Tabs> has ${items.length} items but ${panes.length} <Tabs.Tab> children`)
  const parentDepth = r.state.headingDepth
  const depth = Math.min(parentDepth + 1, 6) as Heading['depth']
  const out: RootContent[] = []
  panes.forEach((pane, i) => {
    out.push({ type: 'heading', depth, children: [text(items[i] as string)] })
    r.state.headingDepth = depth
    out.push(...asBlocks(r.children(pane.children as RootContent[])))
  })
  r.state.headingDepth = parentDepth
  return out
}

/** Steps are the h3 headings inside; Nextra numbers them with CSS, the twin in the text. */
const steps: ComponentRenderer = (element, r) => {
  let n = 0
  return asBlocks(r.children(element.children as RootContent[])).map((node) =>
    node.type === 'heading' && node.depth === 3
      ? { ...node, children: [text(`Step ${++n}: `), ...node.children] }
      : node,
  )
}

/** A list of links: `- [Title](href): text`. */
const cards: ComponentRenderer = (element, r) => {
  const file = r.state.file
  const items: ListItem[] = childElements(element, ['Cards.Card', 'Card'], file).map((card) => {
    const title = stringAttribute(card, 'title', file)
    const href = stringAttribute(card, 'href', file)
    if (!title || !href) throw twinError(file, card.position, `<${card.name}> needs a title and an href`)
    const rest = plainText(asBlocks(r.children(card.children as RootContent[]))).trim()
    const line: PhrasingContent[] = [{ type: 'link', url: href, children: [text(title)] }]
    if (rest) line.push(text(`: ${rest}`))
    return { type: 'listItem', spread: false, children: [paragraph(line)] }
  })
  return [{ type: 'list', ordered: false, spread: false, children: items }]
}

/** Nested list of names; folders end with `/`. */
const fileTree: ComponentRenderer = (element, r) => {
  const file = r.state.file
  const list = (el: JsxElement): RootContent => ({
    type: 'list',
    ordered: false,
    spread: false,
    children: childElements(el, ['FileTree.Folder', 'FileTree.File', 'Folder', 'File'], file).map((entry): ListItem => {
      const name = stringAttribute(entry, 'name', file)
      if (!name) throw twinError(file, entry.position, `<${entry.name}> needs a name`)
      const isFolder = entry.name!.endsWith('Folder')
      const item: ListItem = {
        type: 'listItem',
        spread: false,
        children: [paragraph([{ type: 'inlineCode', value: isFolder ? `${name}/` : name }])],
      }
      if (isFolder && entry.children.length) item.children.push(list(entry) as BlockContent)
      return item
    }),
  })
  return [list(element)]
}

/** "November 22, 2026 · 4 min read · By …", the line PostHeader shows under a post's H1. */
const postHeader: ComponentRenderer = (element, r) => {
  const post = r.state.post
  if (!post) throw twinError(r.state.file, element.position, '<PostHeader> is only valid in a blog post')
  const authors = post.authors.map((id) => findAuthor(id)?.name ?? id).join(', ')
  const tagLabels = post.tags.map((id) => findTag(id)?.label ?? id).join(', ')
  return [
    paragraph([
      {
        type: 'emphasis',
        children: [
          text(
            `${formatDate(post.date)} · ${formatReadingTime(post.readingTime)} · By ${authors} · Tags: ${tagLabels}`,
          ),
        ],
      },
    ]),
  ]
}

/** The measured figures a quickstart shows at its top (lib/quickstart-timings.json), as the site renders them. */
const quickstartTimingText: ComponentRenderer = (element, r) => {
  const page = stringAttribute(element, 'page', r.state.file)
  if (!page) throw twinError(r.state.file, element.position, '<QuickstartTiming> needs a page')
  let timing: QuickstartTiming
  try {
    timing = quickstartTiming(page)
  } catch (error) {
    throw twinError(r.state.file, element.position, (error as Error).message, error)
  }
  return timingParts(timing).map((part) =>
    typeof part === 'string' ? text(part) : { type: 'inlineCode', value: part.code },
  )
}

const unwrap: ComponentRenderer = (element, r) => r.children(element.children as RootContent[])

/** `<details><summary>Title</summary>…</details>`: the summary in bold, then the content. */
const details: ComponentRenderer = (element, r) => {
  const out: RootContent[] = []
  for (const child of element.children as RootContent[]) {
    if ((child.type === 'mdxJsxFlowElement' || child.type === 'mdxJsxTextElement') && child.name === 'summary') {
      out.push(
        paragraph([
          {
            type: 'strong',
            children: asBlocks(r.children(child.children as RootContent[])).flatMap((n) =>
              n.type === 'paragraph' ? n.children : [],
            ),
          },
        ]),
      )
    } else out.push(...r.children([child]))
  }
  return asBlocks(out)
}

const inlineCode: ComponentRenderer = (element) => [
  { type: 'inlineCode', value: plainText(element.children as RootContent[]) },
]
const wrapPhrasing =
  (type: 'strong' | 'emphasis' | 'delete'): ComponentRenderer =>
  (element, r) => [{ type, children: r.children(element.children as RootContent[]) as PhrasingContent[] }]

const anchor: ComponentRenderer = (element, r) => {
  const href = stringAttribute(element, 'href', r.state.file)
  if (!href) throw twinError(r.state.file, element.position, '<a> needs an href')
  return [{ type: 'link', url: href, children: r.children(element.children as RootContent[]) as PhrasingContent[] }]
}

const image: ComponentRenderer = (element, r) => {
  const src = stringAttribute(element, 'src', r.state.file)
  if (!src) throw twinError(r.state.file, element.position, '<img> needs a src')
  return [{ type: 'image', url: src, alt: stringAttribute(element, 'alt', r.state.file) ?? '' }]
}

export const COMPONENTS: Readonly<Record<string, ComponentRenderer>> = {
  Callout: callout,
  Tabs: tabs,
  Steps: steps,
  Cards: cards,
  FileTree: fileTree,
  Bleed: unwrap,
  PostHeader: postHeader,
  QuickstartTiming: quickstartTimingText,
  details,
  div: unwrap,
  span: unwrap,
  p: unwrap,
  section: unwrap,
  sup: unwrap,
  sub: unwrap,
  small: unwrap,
  abbr: unwrap,
  mark: unwrap,
  br: () => [{ type: 'break' }],
  kbd: inlineCode,
  code: inlineCode,
  strong: wrapPhrasing('strong'),
  b: wrapPhrasing('strong'),
  em: wrapPhrasing('emphasis'),
  i: wrapPhrasing('emphasis'),
  s: wrapPhrasing('delete'),
  a: anchor,
  img: image,
}
