/** @module Stage: page models → MDX for pages/docs/api (operation pages, tag intros, the overview). */
import { BANNER, type Context, type Json } from '../context.ts'
import Slugger from 'github-slugger'
import { tryItRequest } from '../transform/try-it.ts'
import type {
  AccessModel,
  BodyModel,
  CodeSample,
  OperationModel,
  ParameterModel,
  ResponseModel,
  SchemaRow,
  TagModel,
} from '../model.ts'

const COMPONENTS = 'components'

/** Escapes MDX syntax (`{`, `}`, `<`) in Markdown text, leaving code spans and fences alone. */
export function escapeMdx(markdown: string): string {
  let fence: string | null = null
  return markdown
    .split('\n')
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1]
      if (marker && (fence === null || marker.startsWith(fence))) {
        fence = fence === null ? marker : null
        return line
      }
      if (fence !== null) return line
      return line
        .split(/(`+[^`]*`+)/)
        .map((part, i) => (i % 2 === 1 ? part : part.replace(/[{}]/g, (c) => `\\${c}`).replace(/</g, '&lt;')))
        .join('')
    })
    .join('\n')
}

/** One line of plain text for front matter: first sentence, no Markdown. */
export function plainSentence(markdown: string): string {
  const text = markdown
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\*\*([^*]*)\*\*/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim()
  const end = text.search(/\.(\s|$)/)
  return end > 0 ? text.slice(0, end + 1) : text
}

export function frontMatter(fields: Record<string, string>): string {
  const lines = Object.entries(fields).map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
  return ['---', `# ${BANNER}`, ...lines, '---', '', `{/* ${BANNER}. Source: ${fields.openapi} */}`, ''].join('\n')
}

function importsFor(depth: number, names: string[]): string {
  const up = '../'.repeat(depth)
  const files: Record<string, string> = {
    Endpoint: 'api/endpoint',
    MethodBadge: 'api/method-badge',
    OnThisPage: 'api/on-this-page',
    SchemaTable: 'api/schema-table',
    Tabs: 'content/tabs',
    TryIt: 'api/try-it',
  }
  return names.map((n) => `import { ${n} } from '${up}${COMPONENTS}/${files[n]}'`).join('\n')
}

function jsx(value: unknown): string {
  return JSON.stringify(value)
}

function fence(language: string, code: string, title?: string): string {
  const ticks = '`'.repeat(Math.max(3, ...[...code.matchAll(/`{3,}/g)].map((m) => m[0].length + 1)))
  return `${ticks}${language}${title ? ` filename=${JSON.stringify(title)}` : ''}\n${code}\n${ticks}`
}

function exampleBlock(body: BodyModel, title: string): string {
  if (body.example === undefined) return ''
  if (body.contentType.includes('json') || body.contentType === 'multipart/form-data')
    return fence('json', JSON.stringify(body.example, null, 2), title)
  return fence('text', String(body.example).trimEnd(), title)
}

function rowsProp(rows: (SchemaRow | ParameterModel)[]): SchemaRow[] {
  return rows.map((row) => {
    const { in: _in, exampleValue: _value, ...rest } = row as ParameterModel
    return rest
  })
}

const PERMISSION_TEXT: Record<string, string> = {
  public: 'Anyone. No token is needed.',
  authenticated: 'Any member of the team.',
  admin: 'The team admin only.',
  signupKey: "Anyone who holds the server's signup key.",
}

export function describeAccess(access: AccessModel): { auth: string; who: string } {
  const schemes = access.security.map((alt) =>
    alt.length === 0
      ? 'none'
      : alt
          .map((s) =>
            s === 'bearerAuth'
              ? 'bearer token (`Authorization: Bearer <token>`)'
              : s === 'signupKey'
                ? 'signup key (`X-Ferry-Signup-Key` header)'
                : `\`${s}\``,
          )
          .join(' and '),
  )
  const auth =
    schemes.length === 0 || schemes.every((s) => s === 'none')
      ? 'None'
      : schemes.map((s) => (s === 'none' ? 'none' : s)).join(', or ')
  const [resource] = access.permission.split('.')
  const who =
    PERMISSION_TEXT[access.permission] ??
    `The team admin, or a team user granted \`${access.permission}\`${resource === 'apps' ? ' (for this app, if the grant is limited to a list of apps)' : ' (for this entry, if the grant is limited to a list of ids)'}.`
  return { auth: auth.charAt(0).toUpperCase() + auth.slice(1), who }
}

const LOCATIONS: [ParameterModel['in'], string][] = [
  ['path', 'Path parameters'],
  ['query', 'Query parameters'],
  ['header', 'Header parameters'],
  ['cookie', 'Cookie parameters'],
]

function responseContent(r: ResponseModel): string {
  if (!r.body) return 'no body'
  return `\`${r.body.contentType}\`${r.schemaName ? ` (${r.schemaName})` : ''}`
}

/**
 * The responses as a list that wraps in any column: each status links to its section, with its
 * body; the errors share one problem document, named once after the list.
 */
function responseList(responses: ResponseModel[]): string[] {
  const slugger = new Slugger()
  const items = responses.map((r) => {
    const body = r.isProblem ? '' : ` Body: ${responseContent(r)}.`
    return `- [\`${r.status}\` ${cell(r.statusText)}](#${slugger.slug(`${r.status} ${r.statusText}`)}): ${cell(r.description)}${body}`
  })
  const problems = responses.filter((r) => r.isProblem)
  if (problems.length)
    items.push(
      '',
      `Errors (${problems.map((r) => `\`${r.status}\``).join(', ')}) answer a [problem document](#problem-document) (\`application/problem+json\`).`,
    )
  return items
}

function cell(text: string): string {
  return escapeMdx(text.replace(/\s+/g, ' ').replace(/\|/g, '\\|'))
}

/** The response whose example the examples column shows: the first success with an example. */
function shownResponse(op: OperationModel): ResponseModel | undefined {
  return op.responses.find((r) => r.status.startsWith('2') && r.body?.example !== undefined)
}

function renderResponse(r: ResponseModel, exampleInColumn: boolean): string {
  const parts = [`### ${r.status} ${r.statusText}`, '', escapeMdx(r.description)]
  if (r.headers.length)
    parts.push('', `<SchemaTable label=${jsx(`${r.status} response headers`)} rows={${jsx(rowsProp(r.headers))}} />`)
  if (r.body) {
    if (r.isProblem) parts.push('', `The body is a [problem document](#problem-document) (\`${r.body.contentType}\`).`)
    else {
      parts.push('', `Body: \`${r.body.contentType}\`${r.schemaName ? `, schema \`${r.schemaName}\`` : ''}.`)
      parts.push('', `<SchemaTable label=${jsx(`${r.status} response body`)} rows={${jsx(r.body.rows)}} />`)
    }
    const example = exampleBlock(r.body, `${r.status} response example`)
    if (example && exampleInColumn) parts.push('', 'An example is under [Examples](#examples).')
    else if (example) parts.push('', example)
  }
  return parts.join('\n')
}

/** Error responses share one problem shape; its table is printed once per page, not per status. */
function renderProblemTable(responses: ResponseModel[]): string {
  const problem = responses.find((r) => r.isProblem && r.body)
  if (!problem?.body) return ''
  const statuses = responses
    .filter((r) => r.isProblem)
    .map((r) => `\`${r.status}\``)
    .join(', ')
  return [
    '### Problem document',
    '',
    `Every error response (${statuses}) has this \`application/problem+json\` body (RFC 9457, see [Errors](/docs/api#errors)).`,
    '',
    `<SchemaTable label="Problem document" rows={${jsx(problem.body.rows)}} />`,
  ].join('\n')
}

function renderSamples(samples: CodeSample[]): string {
  const tabs = samples.map((s) => `<Tabs.Tab>\n\n${fence(s.language, s.code)}\n\n</Tabs.Tab>`).join('\n')
  return `<Tabs items={${jsx(samples.map((s) => s.label))}} storageKey="ferry-sample-language">\n${tabs}\n</Tabs>`
}

/** The page's h2 and h3 headings in order, with the ids Nextra gives them (github-slugger, as remark-headings). */
class Headings {
  readonly items: { id: string; title: string; depth: number }[] = []
  private readonly slugger = new Slugger()
  add(depth: 2 | 3, title: string): string {
    this.items.push({ id: this.slugger.slug(title), title, depth })
    return `${'#'.repeat(depth)} ${title}`
  }
}

/**
 * An operation's page. The description, request and responses fill the main column; the examples
 * (the request in each language and the success response) fill a second column, sticky beside
 * them on wide screens (styles/api.css), with the page's contents above them, where the theme's
 * table of contents would have been.
 */
export function renderOperationPage(op: OperationModel, samples: CodeSample[]): string {
  const { auth, who } = describeAccess(op.access)
  const headings = new Headings()
  const shown = shownResponse(op)
  const main = [
    headings.add(2, 'Authorization'),
    '',
    `- **Authentication:** ${auth}`,
    `- **Permission:** \`${op.access.permission}\`. ${who}`,
    '',
    headings.add(2, 'Request'),
  ]
  for (const [location, heading] of LOCATIONS) {
    const params = op.parameters.filter((p) => p.in === location)
    if (params.length)
      main.push(
        '',
        headings.add(3, heading),
        '',
        `<SchemaTable label=${jsx(heading)} rows={${jsx(rowsProp(params))}} />`,
      )
  }
  const body = op.requestBody
  if (body) {
    main.push(
      '',
      headings.add(3, 'Request body'),
      '',
      `\`${body.contentType}\`, ${body.required ? 'required' : 'optional'}.${body.description ? ` ${escapeMdx(body.description)}` : ''}`,
    )
    main.push('', `<SchemaTable label="Request body" rows={${jsx(body.rows)}} />`)
    const example = exampleBlock(body, 'Request example')
    if (example) main.push('', example)
  }
  if (!body && op.parameters.length === 0) main.push('', 'No parameters and no body.')
  main.push('', headings.add(2, 'Responses'), '', ...responseList(op.responses))
  for (const r of op.responses) {
    headings.add(3, `${r.status} ${r.statusText}`)
    main.push('', renderResponse(r, r === shown))
  }
  const problemTable = renderProblemTable(op.responses)
  if (problemTable) {
    headings.add(3, 'Problem document')
    main.push('', problemTable)
  }
  const contents = headings.items
  const examples = [headings.add(2, 'Examples'), '', renderSamples(samples)]
  if (shown?.body) examples.push('', exampleBlock(shown.body, `${shown.status} response example`))
  return [
    frontMatter({
      title: op.summary,
      description: plainSentence(op.description),
      openapi: op.pointer,
      operationId: op.operationId,
    }),
    importsFor(4, ['Endpoint', 'OnThisPage', 'SchemaTable', 'Tabs', 'TryIt']),
    '',
    `# ${escapeMdx(op.summary)}`,
    '',
    `<Endpoint method=${jsx(op.method)} path=${jsx(op.path)} />`,
    '',
    escapeMdx(op.description),
    '',
    `<TryIt href=${jsx(op.tryItHref)} operationId=${jsx(op.operationId)} request={${jsx(tryItRequest(op))}} />`,
    '',
    '<div className="ferry-op">',
    '<div className="ferry-op-main">',
    '',
    ...main,
    '',
    '</div>',
    '<aside className="ferry-op-aside" aria-label="Examples and contents">',
    '',
    `<OnThisPage items={${jsx(contents)}} />`,
    '',
    ...examples,
    '',
    '</aside>',
    '</div>',
    '',
  ].join('\n')
}

/**
 * A tag's operations as a list (styles/api.css lays each out as a row on wide columns and stacks
 * it on narrow ones), so the link and the permission never fall off a narrow column.
 */
function operationTable(tag: TagModel, docsBase: string): string {
  const rows = tag.operations.map((op) =>
    [
      '<li>',
      `<MethodBadge method=${jsx(op.method)} />`,
      `<a href=${jsx(`${docsBase}/${tag.name}/${op.slug}`)}>{${jsx(op.summary)}}</a>`,
      `<code className="ferry-op-index-path">{${jsx(op.path)}}</code>`,
      `<span className="ferry-op-index-permission"><span className="sr-only">Permission: </span><code>{${jsx(op.access.permission)}}</code></span>`,
      '</li>',
    ].join(''),
  )
  return [`<ul className="ferry-op-index" aria-label=${jsx(`${tag.displayName} operations`)}>`, ...rows, '</ul>'].join(
    '\n',
  )
}

export function renderTagIntro(tag: TagModel, docsBase: string): string {
  return [
    frontMatter({ title: tag.displayName, description: plainSentence(tag.description), openapi: tag.pointer }),
    importsFor(4, ['MethodBadge']),
    '',
    `# ${escapeMdx(tag.displayName)}`,
    '',
    escapeMdx(tag.description.trim()),
    '',
    '## Operations',
    '',
    operationTable(tag, docsBase),
    '',
  ].join('\n')
}

export const DOWNLOADS = [
  { href: '/openapi.yaml', label: 'OpenAPI 3.1 (YAML)' },
  { href: '/openapi.json', label: 'OpenAPI 3.1 (JSON)' },
  { href: '/ferry.postman_collection.json', label: 'Postman collection (v2.1)' },
]

export function renderIndex(ctx: Context, tags: TagModel[]): string {
  const info = ctx.doc.info as Json
  const downloads = DOWNLOADS.map((d) => `- <a href=${jsx(d.href)} download>${d.label}</a>`).join('\n')
  return [
    frontMatter({ title: 'API reference', description: String(info.summary ?? info.title), openapi: '#/info' }),
    importsFor(3, ['MethodBadge']),
    '',
    `# ${escapeMdx(String(info.title))} reference`,
    '',
    `Version \`${String(info.version)}\`. ${escapeMdx(String(info.summary ?? ''))}`,
    '',
    escapeMdx(String(info.description ?? '').trim()),
    '',
    '## Downloads',
    '',
    'The contract these pages are generated from, for your own tooling:',
    '',
    downloads,
    '',
    '## Operations',
    ...tags.flatMap((tag) => ['', `### ${escapeMdx(tag.displayName)}`, '', operationTable(tag, ctx.options.docsBase)]),
    '',
  ].join('\n')
}
