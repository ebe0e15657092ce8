/** @module Parameter Object and Header Object → rows (OpenAPI 3.1 §4.8.12, §4.8.21). */
import type { Context, Json, Resolved } from '../context.ts'
import type { ParameterModel } from '../model.ts'
import { describeSchema, formatValue } from './schema.ts'

function exampleOf(ctx: Context, node: Json, pointer: string): unknown {
  if (node.example !== undefined) return node.example
  const examples = node.examples as Json | undefined
  const first = examples && Object.entries(examples)[0]
  if (first) return ctx.resolve<Json>(first[1], `${pointer}/examples/${first[0]}`).node.value
  const schemaExamples = (node.schema as Json | undefined)?.examples as unknown[] | undefined
  return schemaExamples?.[0]
}

export function transformParameter(ctx: Context, parameter: unknown, pointer: string): ParameterModel {
  const { node, pointer: at } = ctx.resolve<Json>(parameter, pointer)
  const location = node.in as ParameterModel['in']
  if (typeof node.name !== 'string' || !location) throw ctx.spec.errorAt(at, 'parameter needs a name and `in`')
  const { row } = describeSchema(
    ctx,
    node.schema ?? {},
    `${at}/schema`,
    node.name,
    0,
    node.required === true,
    node.description as string | undefined,
  )
  const exampleValue = exampleOf(ctx, node, at)
  return {
    ...row,
    in: location,
    ...(exampleValue !== undefined ? { exampleValue, example: formatValue(exampleValue) } : {}),
  }
}

/** Response headers are parameters without `name`/`in`; the map key is the name. */
export function transformHeader(ctx: Context, name: string, header: unknown, pointer: string): ParameterModel {
  const { node, pointer: at } = ctx.resolve<Json>(header, pointer)
  return transformParameter(ctx, { ...node, name, in: 'header' }, at)
}

/**
 * Path-item parameters merged with the operation's, resolved; the operation wins on (name, in)
 * and keeps the path item's position. Pages and the server table both read this one merge.
 */
export function mergeParameters(
  ctx: Context,
  pathItem: Json,
  operation: Json,
  pathPointer: string,
  opPointer: string,
): Resolved<Json>[] {
  const merged = new Map<string, Resolved<Json>>()
  const add = (list: unknown, base: string) =>
    ((list as unknown[] | undefined) ?? []).forEach((p, i) => {
      const resolved = ctx.resolve<Json>(p, `${base}/parameters/${i}`)
      if (typeof resolved.node.name !== 'string' || !resolved.node.in)
        throw ctx.spec.errorAt(resolved.pointer, 'parameter needs a name and `in`')
      merged.set(`${String(resolved.node.in)}:${resolved.node.name}`, resolved)
    })
  add(pathItem.parameters, pathPointer)
  add(operation.parameters, opPointer)
  return [...merged.values()]
}

/** The merged parameters as page rows: path, then query, then header. */
export function parameterRows(ctx: Context, merged: Resolved<Json>[]): ParameterModel[] {
  const order = { path: 0, query: 1, header: 2, cookie: 3 }
  return merged.map((p) => transformParameter(ctx, p.node, p.pointer)).sort((a, b) => order[a.in] - order[b.in])
}
