/**
 * @module Operation Object → page model (OpenAPI 3.1 §4.8.10), with its request body
 * (§4.8.13) and responses (§4.8.16-17). Also groups operations under their tags.
 */
import { STATUS_CODES } from 'node:http'
import type { Context, Json } from '../context.ts'
import { escapeToken, toPointer } from '../../../contract/json-pointer.ts'
import { transformCodeSamples } from './code-samples.ts'
import type { BodyModel, OperationModel, ResponseModel, SpecModel, TagModel } from '../model.ts'
import { mergeParameters, parameterRows, transformHeader } from './parameter.ts'
import { transformComponents, transformServerOperation } from './server.ts'
import { fillExamples, flatten, schemaRows, type Direction } from './schema.ts'

export const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace'] as const

const PROBLEM_TYPE = 'application/problem+json'

function mediaExample(ctx: Context, media: Json, pointer: string): unknown {
  if (media.example !== undefined) return media.example
  const first = Object.entries((media.examples ?? {}) as Json)[0]
  if (first) return ctx.resolve<Json>(first[1], `${pointer}/examples/${first[0]}`).node.value
  return undefined
}

function transformBody(
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

function transformResponse(ctx: Context, status: string, response: unknown, pointer: string): ResponseModel {
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

function requireString(ctx: Context, node: Json, key: string, pointer: string): string {
  const value = node[key]
  if (typeof value !== 'string' || value.trim() === '') throw ctx.spec.errorAt(pointer, `operation needs \`${key}\``)
  return value.trim()
}

export function transformOperation(ctx: Context, path: string, method: string): OperationModel {
  const paths = ctx.doc.paths as Json
  const pathItem = paths[path] as Json
  const operation = pathItem[method] as Json
  const pathPointer = toPointer(['paths', path])
  const pointer = toPointer(['paths', path, method])
  const operationId = requireString(ctx, operation, 'operationId', pointer)
  const tag = ((operation.tags as string[] | undefined) ?? [])[0]
  if (!tag) throw ctx.spec.errorAt(pointer, 'operation needs a tag (its page folder)')
  const slug = requireString(ctx, operation, 'x-page-slug', pointer)
  const permission = requireString(ctx, operation, 'x-ferry-permission', pointer)
  const security = ((operation.security ?? ctx.doc.security ?? []) as Json[]).map((req) => Object.keys(req))
  const requestBody = operation.requestBody
    ? (() => {
        const { node, pointer: at } = ctx.resolve<Json>(operation.requestBody, `${pointer}/requestBody`)
        return transformBody(ctx, node, at, 'request', node.required === true)
      })()
    : undefined
  const responses = Object.entries((operation.responses ?? {}) as Json).map(([status, r]) =>
    transformResponse(ctx, status, r, `${pointer}/responses/${status}`),
  )
  const parameters = mergeParameters(ctx, pathItem, operation, pathPointer, pointer)
  const codeSamples = transformCodeSamples(ctx, operation, pointer)
  return {
    pointer,
    method: method.toUpperCase(),
    path,
    operationId,
    tag,
    slug,
    route: `${ctx.options.docsBase}/${tag}/${slug}`,
    summary: requireString(ctx, operation, 'summary', pointer),
    description: requireString(ctx, operation, 'description', pointer),
    access: { permission, security },
    parameters: parameterRows(ctx, parameters),
    ...(requestBody ? { requestBody } : {}),
    responses,
    tryItHref: `${ctx.options.demoPath}#/${encodeURIComponent(tag)}/${encodeURIComponent(operationId)}`,
    codeSamples,
    server: transformServerOperation(ctx, { operation, method, path, pointer, operationId, permission, parameters }),
  }
}

/** Every operation, grouped by its first tag in the order the tags are declared. */
export function transformTags(ctx: Context): TagModel[] {
  return transformSpec(ctx).tags
}

/** The one walk of the spec: tags with their operations, the operations in spec order, and the components. */
export function transformSpec(ctx: Context): SpecModel {
  const operations: OperationModel[] = []
  const declared = (ctx.doc.tags ?? []) as Json[]
  const tags: TagModel[] = declared.map((tag, i) => {
    const pointer = `#/tags/${i}`
    return {
      name: requireString(ctx, tag, 'name', pointer),
      displayName: typeof tag['x-displayName'] === 'string' ? tag['x-displayName'] : String(tag.name),
      slug: requireString(ctx, tag, 'x-page-slug', pointer),
      description: requireString(ctx, tag, 'description', pointer),
      pointer,
      operations: [],
    }
  })
  const byName = new Map(tags.map((t) => [t.name, t]))
  const seen = new Map<string, string>()
  for (const [path, item] of Object.entries((ctx.doc.paths ?? {}) as Json)) {
    for (const method of METHODS) {
      if (!(item as Json)[method]) continue
      const op = transformOperation(ctx, path, method)
      const tag = byName.get(op.tag)
      if (!tag) throw ctx.spec.errorAt(`${op.pointer}/tags/0`, `tag ${op.tag} is not declared in #/tags`)
      const clash = seen.get(op.route)
      if (clash)
        throw ctx.spec.errorAt(`${op.pointer}/x-page-slug`, `page ${op.route} is already generated for ${clash}`)
      if (op.slug === tag.slug)
        throw ctx.spec.errorAt(`${op.pointer}/x-page-slug`, `slug ${op.slug} is the intro page of tag ${tag.name}`)
      seen.set(op.route, op.pointer)
      tag.operations.push(op)
      operations.push(op)
    }
  }
  return { tags, operations, components: transformComponents(ctx) }
}
