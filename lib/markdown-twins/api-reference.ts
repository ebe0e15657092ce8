/**
 * @module Twins of the generated API reference, printed from the same page model lib/codegen
 * renders the MDX from (not by converting that MDX): method and path, access, parameter and
 * schema tables, responses, examples and the code samples of every operation.
 */
import { createContext, type Context, type Json } from '../codegen/context.ts'
import { DOWNLOADS, describeAccess, plainSentence } from '../codegen/emit/mdx.ts'
import { loadSpec } from '../codegen/load.ts'
import type { BodyModel, OperationModel, ParameterModel, ResponseModel, SchemaRow, TagModel } from '../codegen/model.ts'
import { operationSamples } from '../codegen/samples.ts'
import { transformSpec } from '../codegen/transform/operation.ts'
import { EVENTS_FOLDER, EVENTS_INTRO } from '../codegen/transform/webhook.ts'
import { EVENTS_INTRO_PAGE, eventBody, eventsIntroBody } from '../codegen/emit/webhook-pages.ts'

export interface ApiPage {
  route: string
  title: string
  description: string
  /** JSON pointer of what the page documents in the spec, e.g. `#/paths/~1v1~1apps/post`. */
  pointer: string
  /** Markdown with site-relative links; the caller makes them absolute. */
  markdown: string
}

/** `code` as an inline code span, with enough backticks for what it contains. */
function code(value: string): string {
  if (value === '') return '`""`'
  const ticks = '`'.repeat(Math.max(0, ...[...value.matchAll(/`+/g)].map((m) => m[0].length)) + 1)
  return ticks.length > 1 || value.startsWith('`') || value.endsWith('`')
    ? `${ticks} ${value} ${ticks}`
    : `${ticks}${value}${ticks}`
}

function fence(language: string, body: string, filename?: string): string {
  const ticks = '`'.repeat(Math.max(3, ...[...body.matchAll(/`{3,}/g)].map((m) => m[0].length + 1)))
  return `${ticks}${language}${filename ? ` filename=${JSON.stringify(filename)}` : ''}\n${body}\n${ticks}`
}

function cell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim()
}

function rowDetails(row: SchemaRow): string {
  const parts: string[] = []
  if (row.description) parts.push(row.description)
  if (row.enum) parts.push(`One of: ${row.enum.map(code).join(', ')}.`)
  if (row.constraints) parts.push(`Constraints: ${row.constraints.map(code).join(', ')}.`)
  if (row.default !== undefined) parts.push(`Default: ${code(row.default)}.`)
  if (row.example !== undefined) parts.push(`Example: ${code(row.example)}.`)
  return parts.join(' ')
}

export function schemaTable(rows: readonly (SchemaRow | ParameterModel)[]): string {
  const lines = ['| Name | Type | Required | Description |', '| --- | --- | --- | --- |']
  for (const row of rows) {
    const type = `${row.type}${row.format ? ` (${row.format})` : ''}${row.schemaName ? `, ${code(row.schemaName)}` : ''}`
    lines.push(`| ${code(row.name)} | ${cell(type)} | ${row.required ? 'yes' : 'no'} | ${cell(rowDetails(row))} |`)
  }
  return lines.join('\n')
}

function example(body: BodyModel, title: string): string[] {
  if (body.example === undefined) return []
  const json = body.contentType.includes('json') || body.contentType === 'multipart/form-data'
  return [
    '',
    json
      ? fence('json', JSON.stringify(body.example, null, 2), title)
      : fence('text', String(body.example).trimEnd(), title),
  ]
}

const LOCATIONS: [ParameterModel['in'], string][] = [
  ['path', 'Path parameters'],
  ['query', 'Query parameters'],
  ['header', 'Header parameters'],
  ['cookie', 'Cookie parameters'],
]

function response(r: ResponseModel): string[] {
  const out = ['', `### ${r.status} ${r.statusText}`, '', r.description]
  if (r.headers.length) out.push('', 'Headers:', '', schemaTable(r.headers))
  if (r.body) {
    if (r.isProblem) out.push('', `The body is a [problem document](#problem-document) (${code(r.body.contentType)}).`)
    else
      out.push(
        '',
        `Body: ${code(r.body.contentType)}${r.schemaName ? `, schema ${code(r.schemaName)}` : ''}.`,
        '',
        schemaTable(r.body.rows),
      )
    out.push(...example(r.body, `${r.status} response example`))
  }
  return out
}

export function operationMarkdown(op: OperationModel, serverUrl: string): string {
  const { auth, who } = describeAccess(op.access)
  const out = [
    `# ${op.summary}`,
    '',
    code(`${op.method.toUpperCase()} ${op.path}`),
    '',
    op.description.trim(),
    '',
    `Try it in the browser sandbox: [${op.operationId}](${op.tryItHref}).`,
  ]
  out.push(
    '',
    '## Authorization',
    '',
    `- **Authentication:** ${auth}`,
    `- **Permission:** ${code(op.access.permission)}. ${who}`,
    '',
    '## Request',
  )
  for (const [location, heading] of LOCATIONS) {
    const params = op.parameters.filter((p) => p.in === location)
    if (params.length) out.push('', `### ${heading}`, '', schemaTable(params))
  }
  const body = op.requestBody
  if (body) {
    out.push(
      '',
      '### Request body',
      '',
      `${code(body.contentType)}, ${body.required ? 'required' : 'optional'}.${body.description ? ` ${body.description}` : ''}`,
      '',
      schemaTable(body.rows),
    )
    out.push(...example(body, 'Request example'))
  }
  if (!body && op.parameters.length === 0) out.push('', 'No parameters and no body.')
  out.push('', '## Responses', '', '| Status | Meaning | Body |', '| --- | --- | --- |')
  for (const r of op.responses)
    out.push(
      `| ${code(r.status)} | ${cell(`${r.statusText}: ${r.description}`)} | ${r.body ? `${code(r.body.contentType)}${r.schemaName ? ` (${r.schemaName})` : ''}` : 'no body'} |`,
    )
  for (const r of op.responses) out.push(...response(r))
  const problem = op.responses.find((r) => r.isProblem && r.body)
  if (problem?.body) {
    const statuses = op.responses
      .filter((r) => r.isProblem)
      .map((r) => code(r.status))
      .join(', ')
    out.push(
      '',
      '### Problem document',
      '',
      `Every error response (${statuses}) has this ${code('application/problem+json')} body (RFC 9457, see [Errors](/docs/api#errors)).`,
      '',
      schemaTable(problem.body.rows),
    )
  }
  out.push('', '## Code samples')
  for (const sample of operationSamples(op, serverUrl))
    out.push('', `### ${sample.label}`, '', fence(sample.language, sample.code))
  return out.join('\n') + '\n'
}

function operationTable(tag: TagModel): string {
  const rows = tag.operations.map(
    (op) =>
      `| ${op.method.toUpperCase()} | ${code(op.path)} | [${cell(op.summary)}](${op.route}) | ${code(op.access.permission)} |`,
  )
  return ['| Method | Path | Operation | Permission |', '| --- | --- | --- | --- |', ...rows].join('\n')
}

function tagMarkdown(tag: TagModel): string {
  return [`# ${tag.displayName}`, '', tag.description.trim(), '', '## Operations', '', operationTable(tag), ''].join(
    '\n',
  )
}

function indexMarkdown(ctx: Context, tags: TagModel[]): string {
  const info = ctx.doc.info as Json
  return [
    `# ${String(info.title)} reference`,
    '',
    `Version ${code(String(info.version))}. ${String(info.summary ?? '')}`,
    '',
    String(info.description ?? '').trim(),
    '',
    '## Downloads',
    '',
    'The contract these pages are generated from, for your own tooling:',
    '',
    ...DOWNLOADS.map((d) => `- [${d.label}](${d.href})`),
    '',
    '## Operations',
    ...tags.flatMap((tag) => ['', `### ${tag.displayName}`, '', operationTable(tag)]),
    '',
  ].join('\n')
}

/**
 * Every page of the API reference in sidebar order: the overview, then per tag its intro and
 * operations, then the webhook events' introduction and each event.
 */
export async function apiReferencePages(specPath: string): Promise<ApiPage[]> {
  const ctx = createContext(await loadSpec(specPath))
  const { tags, webhooks } = transformSpec(ctx)
  const base = ctx.options.docsBase
  const info = ctx.doc.info as Json
  const pages: ApiPage[] = [
    {
      route: base,
      title: 'API reference',
      description: String(info.summary ?? info.title),
      pointer: '#/info',
      markdown: indexMarkdown(ctx, tags),
    },
  ]
  for (const tag of tags) {
    pages.push({
      route: `${base}/${tag.name}/${tag.slug}`,
      title: tag.displayName,
      description: plainSentence(tag.description),
      pointer: tag.pointer,
      markdown: tagMarkdown(tag),
    })
    for (const op of tag.operations) {
      pages.push({
        route: op.route,
        title: op.summary,
        description: plainSentence(op.description),
        pointer: op.pointer,
        markdown: operationMarkdown(op, ctx.serverUrl),
      })
    }
  }
  if (webhooks.length)
    pages.push({
      route: `${base}/${EVENTS_FOLDER}/${EVENTS_INTRO}`,
      title: EVENTS_INTRO_PAGE.title,
      description: EVENTS_INTRO_PAGE.description,
      pointer: EVENTS_INTRO_PAGE.openapi,
      markdown: eventsIntroBody(webhooks, base),
    })
  for (const hook of webhooks)
    pages.push({
      route: hook.route,
      title: hook.type,
      description: plainSentence(hook.description),
      pointer: hook.pointer,
      markdown: eventBody(hook, base, (_label, rows) => schemaTable(rows)),
    })
  return pages
}
