/**
 * @module Operation Object → page model (OpenAPI 3.1 §4.8.10). Also groups operations under
 * their tags, and walks `webhooks:` (transform/webhook.ts) in the same pass.
 */
import { requireString, type Context, type Json } from '../context.ts'
import { toPointer } from '../../../contract/json-pointer.ts'
import { transformBody, transformResponse } from './body.ts'
import { transformCodeSamples } from './code-samples.ts'
import type { OperationModel, SpecModel, TagModel } from '../model.ts'
import { mergeParameters, parameterRows } from './parameter.ts'
import { transformComponents, transformServerOperation } from './server.ts'
import { transformWebhooks } from './webhook.ts'

export const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace'] as const

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
  return { tags, operations, webhooks: transformWebhooks(ctx, seen), components: transformComponents(ctx) }
}
