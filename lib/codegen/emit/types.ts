/** @module Stage: TypeScript types for the server (contract/generated/api.ts) via openapi-typescript. */
import openapiTS, { astToString } from 'openapi-typescript'
import { BANNER, type Context } from '../context.ts'

export async function renderTypes(ctx: Context): Promise<string> {
  // openapi-typescript is the reference generator for OpenAPI 3.1 → TS: it keeps `paths`,
  // `components` and `operations` addressable, which the server's route handlers type against.
  const ast = await openapiTS(structuredClone(ctx.doc) as never, {
    alphabetize: false,
    exportType: false,
    immutable: false,
    silent: true,
  })
  return `// ${BANNER}\n// Source: #/ (run \`npm run gen\` after editing the spec)\n\n${astToString(ast)}`
}
