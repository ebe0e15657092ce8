/**
 * @module `#/webhooks` → page models: each entry is an event Ferry POSTs to a subscription's URL
 * (OpenAPI 3.1 §4.8.1), keyed by the event's `type`, with its headers, body and schema.
 */
import { requireString, type Context, type Json } from '../context.ts'
import { escapeToken, toPointer } from '../../../contract/json-pointer.ts'
import type { WebhookModel } from '../model.ts'
import { transformBody, transformResponse } from './body.ts'
import { parameterRows } from './parameter.ts'
import { rebase } from './server.ts'

/** The folder of the event pages under the API docs, and its introduction's slug. */
export const EVENTS_FOLDER = 'events'
export const EVENTS_INTRO = 'events-introduction'

function transformWebhook(ctx: Context, type: string, item: Json): WebhookModel {
  const pointer = toPointer(['webhooks', type, 'post'])
  const operation = item.post as Json | undefined
  if (!operation || Object.keys(item).some((key) => key !== 'post'))
    throw ctx.spec.errorAt(toPointer(['webhooks', type]), 'a webhook is one `post`: Ferry POSTs every event')
  const slug = requireString(ctx, operation, 'x-page-slug', pointer)
  if (requireString(ctx, operation, 'summary', pointer) !== type)
    throw ctx.spec.errorAt(`${pointer}/summary`, `the summary is the event's type, ${type}`)
  const { node: requestBody, pointer: bodyPointer } = ctx.resolve<Json>(operation.requestBody, `${pointer}/requestBody`)
  const body = requestBody && transformBody(ctx, requestBody, bodyPointer, 'request', true)
  const media = body && ((requestBody.content as Json)[body.contentType] as Json)
  if (!body || !media?.schema) throw ctx.spec.errorAt(`${pointer}/requestBody`, 'a webhook needs a JSON body schema')
  if ((body.example as Json | undefined)?.type !== type)
    throw ctx.spec.errorAt(`${bodyPointer}/content`, `the example's \`type\` is not ${type}`)
  const parameters = ((operation.parameters ?? []) as unknown[]).map((p, i) =>
    ctx.resolve<Json>(p, `${pointer}/parameters/${i}`),
  )
  return {
    pointer,
    type,
    operationId: requireString(ctx, operation, 'operationId', pointer),
    slug,
    route: `${ctx.options.docsBase}/${EVENTS_FOLDER}/${slug}`,
    description: requireString(ctx, operation, 'description', pointer),
    headers: parameterRows(ctx, parameters),
    body,
    schema: rebase(ctx, media.schema, `${bodyPointer}/content/${escapeToken(body.contentType)}/schema`),
    responses: Object.entries((operation.responses ?? {}) as Json).map(([status, r]) =>
      transformResponse(ctx, status, r, `${pointer}/responses/${status}`),
    ),
  }
}

/** Every event of `#/webhooks`, in spec order; `routes` holds the operation pages, so no event page takes one's route. */
export function transformWebhooks(ctx: Context, routes: ReadonlyMap<string, string>): WebhookModel[] {
  const seen = new Map(routes)
  return Object.entries((ctx.doc.webhooks ?? {}) as Json).map(([type, item]) => {
    const hook = transformWebhook(ctx, type, item as Json)
    const clash = seen.get(hook.route)
    if (clash || hook.slug === EVENTS_INTRO)
      throw ctx.spec.errorAt(
        `${hook.pointer}/x-page-slug`,
        `page ${hook.route} is already generated for ${clash ?? 'the events introduction'}`,
      )
    seen.set(hook.route, hook.pointer)
    return hook
  })
}
