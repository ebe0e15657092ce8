/** @module Request bodies (OpenAPI 3.1 §4.8.13) and responses (§4.8.16-17) → page model; operations and webhooks share them. */
import { STATUS_CODES } from 'node:http'
import type { Context, Json } from '../context.ts'
import { escapeToken } from '../../../contract/json-pointer.ts'
import type { BodyModel, ResponseModel } from '../model.ts'
import { transformHeader } from './parameter.ts'
import { fillExamples, flatten, schemaRows, type Direction } from './schema.ts'

const PROBLEM_TYPE = 'application/problem+json'

function mediaExample(ctx: Context, media: Json, pointer: string): unknown {
  if (media.example !== undefined) return media.example
  const first = Object.entries((media.examples ?? {}) as Json)[0]
  if (first) return ctx.resolve<Json>(first[1], `${pointer}/examples/${first[0]}`).node.value
  return undefined
}

export function transformBody(
  ctx: Context,
  container: Json,
  pointer: string,
  direction: Direction,
  required: boolean,
): BodyModel | undefined {
  const content = container.content as Json | undefined
  const entry = content && Object.entries(content)[0]
  if (!entry) return undefined
  const [contentType, mediaNode] = entry
  const mediaPointer = `${pointer}/content/${escapeToken(contentType)}`
  const media = mediaNode as Json
  const schema = media.schema ?? {}
  const flat = flatten(ctx, schema, `${mediaPointer}/schema`)
  const example = mediaExample(ctx, media, mediaPointer)
  const binary = flat.schema.format === 'binary'
  if (example === undefined && !binary)
    ctx.report(ctx.options.onMissingExample, mediaPointer, `${contentType} body has no example`)
  const properties = (flat.schema.properties ?? {}) as Json
  const fileFields = Object.entries(properties)
    .filter(([key]) => {
      const prop = flatten(ctx, properties[key], `${mediaPointer}/schema/properties/${key}`).schema
      const item =
        prop.type === 'array'
          ? flatten(ctx, prop.items ?? {}, `${mediaPointer}/schema/properties/${key}/items`).schema
          : prop
      return item.format === 'binary'
    })
    .map(([key]) => key)
  return {
    contentType,
    required,
    ...(typeof container.description === 'string' && direction === 'request'
      ? { description: container.description.trim() }
      : {}),
    rows: fillExamples(schemaRows(ctx, schema, `${mediaPointer}/schema`, direction), example),
    ...(example !== undefined ? { example } : {}),
    fileFields,
  }
}

export function transformResponse(ctx: Context, status: string, response: unknown, pointer: string): ResponseModel {
  const { node, refName } = ctx.resolve<Json>(response, pointer)
  const body = transformBody(ctx, node, pointer, 'response', true)
  const content = (node.content ?? {}) as Json
  const schemaRef = Object.values(content)[0] as Json | undefined
  const schemaName = schemaRef?.schema ? flatten(ctx, schemaRef.schema, `${pointer}/schema`).refName : undefined
  const headers = Object.entries((node.headers ?? {}) as Json).map(([name, h]) =>
    transformHeader(ctx, name, h, `${pointer}/headers/${name}`),
  )
  return {
    status,
    statusText: STATUS_CODES[Number(status)] ?? status,
    description: String(node.description ?? '').trim(),
    pointer: refName ? String((response as Json).$ref) : pointer,
    ...(schemaName ? { schemaName } : {}),
    isProblem: PROBLEM_TYPE in content,
    headers,
    ...(body ? { body } : {}),
  }
}
