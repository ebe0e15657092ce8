/** @module Stage: TypeScript types for the server (contract/generated/api.ts) via openapi-typescript. */
import openapiTS, { astToString } from 'openapi-typescript'
import { BANNER, type Context, type Json } from '../context.ts'

/**
 * The spec without the webhooks' operationIds: openapi-typescript would list those events in
 * `operations`, whose keys are the operations the server routes (`OperationId`); they stay
 * typed in place under `webhooks`.
 */
function withoutWebhookIds(doc: Json): Json {
  const copy = structuredClone(doc)
  for (const item of Object.values((copy.webhooks ?? {}) as Json))
    for (const operation of Object.values(item as Json)) delete (operation as Json).operationId
  return copy
}

export async function renderTypes(ctx: Context): Promise<string> {
  // openapi-typescript is the reference generator for OpenAPI 3.1 → TS: it keeps `paths`,
  // `components` and `operations` addressable, which the server's route handlers type against.
  const ast = await openapiTS(withoutWebhookIds(ctx.doc) as never, {
    alphabetize: false,
    exportType: false,
    immutable: false,
    silent: true,
  })
  return `// ${BANNER}\n// Source: #/ (run \`npm run gen\` after editing the spec)\n\n${astToString(ast)}`
}
