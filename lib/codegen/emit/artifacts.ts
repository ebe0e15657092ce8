/** @module Stage: downloadable contract files in public/ (YAML, JSON, Postman collection). */
import { convertV2 } from 'openapi-to-postmanv2'
import { stringify } from 'yaml'
import { BANNER, type Context } from '../context.ts'

export function renderYaml(ctx: Context): string {
  // Anchors in the source become plain copies: consumers of the published file need no alias support.
  return `# ${BANNER}\n${stringify(ctx.doc, { aliasDuplicateObjects: false, lineWidth: 0 })}`
}

export function renderJson(ctx: Context): string {
  // JSON has no comments; an extension member carries the banner (tools ignore `x-` keys).
  return JSON.stringify({ 'x-generated': BANNER, ...ctx.doc }, null, 2) + '\n'
}

type Json = Record<string, unknown>

/** Postman assigns random ids on every conversion; dropping them keeps `gen --check` stable. */
export function stripRandomIds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripRandomIds)
  if (node === null || typeof node !== 'object') return node
  const out: Json = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === 'id' || key === '_postman_id') continue
    out[key] = stripRandomIds(value)
  }
  return out
}

/** A small seeded PRNG (mulberry32): the converter fakes values for schemas with `Math.random`. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The converter ignores multipart examples; put the spec's example values into the form fields. */
function applyFormExamples(ctx: Context, node: unknown): void {
  if (Array.isArray(node)) return node.forEach((n) => applyFormExamples(ctx, n))
  if (node === null || typeof node !== 'object') return
  const request = node as Json
  const body = request.body as Json | undefined
  if (body?.mode === 'formdata' && request.url && request.method) {
    const path = '/' + ((request.url as Json).path as string[]).map((s) => s.replace(/^:(.+)$/, '{$1}')).join('/')
    const operation = ((ctx.doc.paths as Json)[path] as Json | undefined)?.[String(request.method).toLowerCase()] as
      Json | undefined
    const media = ((operation?.requestBody as Json | undefined)?.content as Json | undefined)?.[
      'multipart/form-data'
    ] as Json | undefined
    const example = (media?.example ?? {}) as Json
    const fields: Json[] = []
    for (const field of body.formdata as Json[]) {
      const value = example[String(field.key)]
      if (value === undefined) fields.push(field)
      else if (Array.isArray(value))
        for (const file of value) fields.push({ ...field, type: 'file', src: String(file), value: undefined })
      else fields.push({ ...field, value: typeof value === 'string' ? value : JSON.stringify(value) })
    }
    body.formdata = JSON.parse(JSON.stringify(fields))
  }
  for (const value of Object.values(node)) applyFormExamples(ctx, value)
}

export async function renderPostman(ctx: Context): Promise<string> {
  // openapi-to-postmanv2 is Postman's own converter, so the collection imports without surprises.
  const random = Math.random
  Math.random = seeded(0x5eed)
  const collection = await new Promise<unknown>((resolve, reject) => {
    convertV2(
      { type: 'json', data: structuredClone(ctx.doc) },
      { folderStrategy: 'Tags', parametersResolution: 'Example', includeAuthInfoInExample: true },
      (error, result) => {
        if (error) return reject(error)
        if (!result?.result || !result.output?.[0])
          return reject(new Error(`openapi-to-postmanv2: ${result?.reason ?? 'conversion failed'}`))
        resolve(result.output[0].data)
      },
    )
  }).finally(() => {
    Math.random = random
  })
  const clean = stripRandomIds(collection) as Json
  applyFormExamples(ctx, clean.item)
  const info = clean.info as Json | undefined
  if (info) info.description = { content: `${BANNER}.`, type: 'text/plain' }
  return JSON.stringify(clean, null, 2) + '\n'
}
