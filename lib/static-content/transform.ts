/**
 * @module Static content: a docs page, post or API page whose MDX needs no code in the browser
 * ships none. Nextra compiles each page into `function MDXLayout(props) { … return <>…</> }`;
 * for the server, its result is wrapped in <StaticContent>, which marks the content's HTML;
 * for the browser, the function's body becomes `return <StaticContent />`, which adopts that
 * HTML without hydrating it (or fetches it after a client-side navigation), and the imports only
 * the content used are dropped. The table of contents (`useTOC`), title and front matter stay.
 */
import { Parser } from 'acorn'
import jsx from 'acorn-jsx'
import { dirname, join, relative, resolve } from 'node:path'
import { STATIC_SAFE_MODULES, STATIC_SAFE_NAMED, STATIC_SAFE_PACKAGES, isNextraRuntime } from './safe-imports.ts'

export interface SyntaxNode {
  type: string
  start: number
  end: number
  [key: string]: unknown
}

export type Eligibility = { static: true } | { static: false; reason: string }

const JsxParser = Parser.extend(jsx())

export function parseModule(code: string): SyntaxNode {
  return JsxParser.parse(code, { ecmaVersion: 'latest', sourceType: 'module' }) as unknown as SyntaxNode
}

function isNode(value: unknown): value is SyntaxNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
}

function children(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = []
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' || key === 'start' || key === 'end') continue
    if (Array.isArray(value)) out.push(...value.filter(isNode))
    else if (isNode(value)) out.push(value)
  }
  return out
}

function body(program: SyntaxNode): SyntaxNode[] {
  return (program.body as SyntaxNode[]) ?? []
}

function nameOf(node: unknown): string | undefined {
  return isNode(node) && typeof node.name === 'string' ? node.name : undefined
}

function sourceOf(declaration: SyntaxNode): string {
  return String((declaration.source as SyntaxNode).value)
}

/** The compiled page's `function MDXLayout(props) {…}`. */
function findLayout(program: SyntaxNode): SyntaxNode | undefined {
  return body(program).find((node) => node.type === 'FunctionDeclaration' && nameOf(node.id) === 'MDXLayout')
}

function importIsSafe(declaration: SyntaxNode, file: string, root: string): boolean {
  const source = sourceOf(declaration)
  if (isNextraRuntime(source) || (STATIC_SAFE_PACKAGES as readonly string[]).includes(source)) return true
  const named = STATIC_SAFE_NAMED[source]
  if (named) {
    const specifiers = declaration.specifiers as SyntaxNode[]
    return specifiers.every((s) => s.type === 'ImportSpecifier' && named.includes(nameOf(s.imported) ?? ''))
  }
  if (!source.startsWith('.')) return false
  const fromRoot = relative(root, resolve(dirname(file), source))
    .replace(/\\/g, '/')
    .replace(/\.(tsx?|jsx?)$/, '')
  return (STATIC_SAFE_MODULES as readonly string[]).includes(fromRoot)
}

/**
 * Whether a compiled page can be static content: it imports only static-safe modules and
 * exports nothing but its table of contents (a page with `getStaticProps` renders data).
 */
export function eligibility(program: SyntaxNode, file: string, root: string): Eligibility {
  if (/^(404|500)\.mdx?$/.test(relative(join(root, 'pages'), file)))
    return { static: false, reason: 'an error page is shown at any address, never hydrated' }
  if (!findLayout(program)) return { static: false, reason: 'no MDXLayout function in the compiled page' }
  for (const node of body(program)) {
    if (node.type === 'ImportDeclaration' && !importIsSafe(node, file, root))
      return { static: false, reason: `imports ${sourceOf(node)}` }
    if (node.type === 'ExportNamedDeclaration') {
      const declaration = node.declaration
      if (!isNode(declaration) || declaration.type !== 'FunctionDeclaration' || nameOf(declaration.id) !== 'useTOC')
        return { static: false, reason: 'exports more than its table of contents' }
    }
    if (node.type === 'ExportAllDeclaration') return { static: false, reason: 're-exports a module' }
  }
  return { static: true }
}

type Edit = { start: number; end: number; text: string }

function applyEdits(code: string, edits: Edit[]): string {
  let out = code
  for (const edit of [...edits].sort((a, b) => b.start - a.start))
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end)
  return out
}

/** Names read anywhere in the program outside `skip` and outside import declarations. */
function referencedNames(program: SyntaxNode, skip: SyntaxNode): Set<string> {
  const names = new Set<string>()
  const visit = (node: SyntaxNode) => {
    if (node === skip || node.type === 'ImportDeclaration') return
    if (node.type === 'Identifier' || node.type === 'JSXIdentifier') names.add(String(node.name))
    for (const child of children(node)) visit(child)
  }
  visit(program)
  return names
}

/** An import declaration with only the `kept` specifiers, as they were written. */
function importText(code: string, source: string, kept: SyntaxNode[]): string {
  const text = (s: SyntaxNode) => code.slice(s.start, s.end)
  const named = kept.filter((s) => s.type === 'ImportSpecifier').map(text)
  const parts = [
    ...kept.filter((s) => s.type !== 'ImportSpecifier').map(text),
    ...(named.length > 0 ? [`{ ${named.join(', ')} }`] : []),
  ]
  return `import ${parts.join(', ')} from ${JSON.stringify(source)};`
}

function importLine(componentPath: string): string {
  return `import { StaticContent } from ${JSON.stringify(componentPath)};\n`
}

/** The browser's module: MDXLayout renders <StaticContent />, imports only the content used are gone. */
export function clientModule(code: string, program: SyntaxNode, componentPath: string): string {
  const layout = findLayout(program)!
  const layoutBody = layout.body as SyntaxNode
  const edits: Edit[] = [{ start: layoutBody.start, end: layoutBody.end, text: '{\n  return <StaticContent />;\n}' }]
  const used = referencedNames(program, layoutBody)
  for (const node of body(program)) {
    if (node.type !== 'ImportDeclaration') continue
    const specifiers = node.specifiers as SyntaxNode[]
    if (specifiers.length === 0) continue
    const kept = specifiers.filter((s) => used.has(nameOf(s.local) ?? ''))
    if (kept.length === specifiers.length) continue
    if (kept.length === 0) edits.push({ start: node.start, end: node.end, text: '' })
    else edits.push({ start: node.start, end: node.end, text: importText(code, sourceOf(node), kept) })
  }
  return importLine(componentPath) + applyEdits(code, edits)
}

/** The server's module: MDXLayout's content is wrapped in <StaticContent>, which marks its HTML. */
export function serverModule(code: string, program: SyntaxNode, componentPath: string): string {
  const layout = findLayout(program)!
  const statements = ((layout.body as SyntaxNode).body as SyntaxNode[]) ?? []
  const returned = statements.findLast((s) => s.type === 'ReturnStatement')
  const argument = returned?.argument
  if (!isNode(argument)) throw new Error('static content: MDXLayout returns nothing to wrap')
  return (
    importLine(componentPath) +
    applyEdits(code, [
      { start: argument.start, end: argument.start, text: '<StaticContent>{' },
      { start: argument.end, end: argument.end, text: '}</StaticContent>' },
    ])
  )
}
