/** @module Stage 1: parse openapi.yaml, check its $refs, validate it with swagger-parser. */
import { readFile } from 'node:fs/promises'
import SwaggerParser from '@apidevtools/swagger-parser'
import { LineCounter, isMap, isSeq, parseDocument, type Document } from 'yaml'
import { atPointer, pointerTokens, toPointer } from '../../contract/json-pointer.ts'

export { pointerTokens, toPointer }

/** A problem in the spec, located by file, line, column and JSON pointer. */
export class SpecError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly pointer: string,
    readonly problem: string,
    options?: ErrorOptions,
  ) {
    super(`${file}:${line}:${column} at ${pointer}: ${problem}`, options)
    this.name = 'SpecError'
  }
}

export interface LoadedSpec {
  file: string
  /** The spec as plain data, `$ref`s intact. */
  raw: Record<string, unknown>
  /** The spec with every `$ref` replaced by its target (from swagger-parser). */
  dereferenced: Record<string, unknown>
  /** Builds a SpecError at a JSON pointer, with the line of the nearest existing node. */
  errorAt(pointer: string, problem: string, cause?: unknown): SpecError
}

/** Line and column (1-based) of the YAML node at `pointer`, or of its deepest existing ancestor. */
export function locate(doc: Document, counter: LineCounter, pointer: string): { line: number; col: number } {
  let node: unknown = doc.contents
  let offset = 0
  for (const token of pointerTokens(pointer)) {
    if (isMap(node)) {
      const pair = node.items.find((p) => String((p.key as { value?: unknown })?.value ?? p.key) === token)
      if (!pair) break
      offset = (pair.key as { range?: [number, number] }).range?.[0] ?? offset
      node = pair.value
    } else if (isSeq(node)) {
      const item = node.items[Number(token)]
      if (item === undefined) break
      node = item
      offset = (item as { range?: [number, number] }).range?.[0] ?? offset
    } else break
  }
  return counter.linePos(offset)
}

/** Finds `$ref`s whose local target does not exist; swagger-parser reports only the target, not the source. */
export function findBrokenRefs(root: unknown): { pointer: string; ref: string }[] {
  const broken: { pointer: string; ref: string }[] = []
  const seen = new Set<unknown>()
  const walk = (node: unknown, path: (string | number)[]) => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return
    seen.add(node)
    const ref = (node as { $ref?: unknown }).$ref
    if (typeof ref === 'string') {
      if (!ref.startsWith('#/'))
        broken.push({ pointer: toPointer([...path, '$ref']), ref: `${ref} (only local references are supported)` })
      else if (atPointer(root, ref) === undefined) broken.push({ pointer: toPointer([...path, '$ref']), ref })
    }
    for (const [key, value] of Object.entries(node)) walk(value, [...path, key])
  }
  walk(root, [])
  return broken
}

interface AjvDetail {
  instancePath: string
  message?: string
  keyword: string
  params?: Record<string, unknown>
}

/** swagger-parser reports schema errors as ajv details; the deepest one is the most useful. */
function describeDetails(details: AjvDetail[]): { pointer: string; problem: string } {
  const useful = details.filter((d) => d.keyword !== 'if' && d.keyword !== 'oneOf' && d.keyword !== 'anyOf')
  const sorted = [...(useful.length ? useful : details)].sort((a, b) => b.instancePath.length - a.instancePath.length)
  const first = sorted[0]!
  const extra =
    first.params && 'unevaluatedProperty' in first.params ? ` (${String(first.params.unevaluatedProperty)})` : ''
  return { pointer: '#' + first.instancePath, problem: `${first.message ?? first.keyword}${extra}` }
}

export async function loadSpec(file: string): Promise<LoadedSpec> {
  const text = await readFile(file, 'utf8')
  const counter = new LineCounter()
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false })
  const errorAt = (pointer: string, problem: string, cause?: unknown) => {
    const { line, col } = locate(doc, counter, pointer)
    return new SpecError(file, line, col, pointer, problem, cause === undefined ? undefined : { cause })
  }
  const syntax = doc.errors[0]
  if (syntax) {
    const pos = syntax.linePos?.[0] ?? { line: 1, col: 1 }
    throw new SpecError(file, pos.line, pos.col, '#', `YAML syntax: ${syntax.message.split('\n')[0]}`, {
      cause: syntax,
    })
  }
  const raw = doc.toJS() as Record<string, unknown>
  const [broken] = findBrokenRefs(raw)
  if (broken) throw errorAt(broken.pointer, `$ref target ${broken.ref} does not exist`)
  let dereferenced: Record<string, unknown>
  try {
    dereferenced = (await SwaggerParser.validate(structuredClone(raw) as never)) as unknown as Record<string, unknown>
  } catch (error) {
    const details = (error as { details?: AjvDetail[] }).details
    if (details?.length) {
      const { pointer, problem } = describeDetails(details)
      throw errorAt(pointer, problem, error)
    }
    throw errorAt('#', (error as Error).message, error)
  }
  return { file, raw, dereferenced, errorAt }
}
