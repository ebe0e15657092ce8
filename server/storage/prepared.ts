/**
 * @module Statements compiled to SQL once per database handle and shape, then run with each
 * call's values. Building a Kysely query and compiling it cost a version listing more CPU than
 * SQLite spent running it; the SQL text depends only on the shape of the values (which are
 * missing, which flags are set, how long a list is), so it is compiled once per shape.
 */
import { ValueNode, type Compilable, type CompiledQuery, type Expression, type OperationNode } from 'kysely'
import { LRUCache } from 'lru-cache'
import { perDatabase } from './per-database.ts'
import type { Db } from '../core/storage.ts'

/**
 * Where a call's value goes among a statement's parameters: `values[name]`, or its `index`th
 * element. To Kysely it is an expression that compiles to one parameter.
 */
class Parameter<T> implements Expression<T> {
  readonly name: string
  readonly index: number
  constructor(name: string, index: number) {
    this.name = name
    this.index = index
  }
  get expressionType(): T | undefined {
    return undefined
  }
  toOperationNode(): OperationNode {
    return ValueNode.create(this)
  }
}

/**
 * A call's value as `build` sees it: a parameter of type `T` to hand to Kysely (`where`, `limit`,
 * `eb(…)`), never the value. Comparing it, calling its methods or reading its fields does not
 * compile: what `build` did with it would be compiled once and reused for every call of the shape.
 */
export type Slot<T> = Expression<T>

/** A parameter that is the same in every call of one shape (a constant of the statement). */
interface Fixed {
  readonly value: unknown
}

interface Template {
  readonly compiled: CompiledQuery
  readonly parameters: ReadonlyArray<Parameter<unknown> | Fixed>
}

/**
 * What `build` reads in place of the values. Strings, numbers and other values stand in as
 * opaque `Slot`s that become parameters; an array stands in as an array of slots of its length;
 * `undefined`, `null` and booleans are the values themselves, part of the shape, so `build` may
 * branch on them.
 */
export type Slots<V> = { readonly [K in keyof V]: StandIn<V[K]> }

type StandIn<T> = T extends undefined | null | boolean
  ? T
  : T extends ReadonlyArray<infer E>
    ? ReadonlyArray<Slot<E>>
    : Slot<T>

/** Shapes kept per statement and handle: filter combinations and list lengths are few in practice. */
const SHAPES = 256

const WHOLE = -1

function shapeOf(values: Readonly<Record<string, unknown>>): string {
  let shape = ''
  for (const name in values) {
    const v = values[name]
    shape +=
      v === undefined
        ? 'u'
        : v === null
          ? 'n'
          : v === true
            ? 't'
            : v === false
              ? 'f'
              : Array.isArray(v)
                ? `[${v.length}]`
                : 'v'
    shape += ','
  }
  return shape
}

function standIns<V extends Record<string, unknown>>(values: V): Slots<V> {
  const out: Record<string, unknown> = {}
  for (const name in values) {
    const v = values[name]
    out[name] =
      v === undefined || v === null || typeof v === 'boolean'
        ? v
        : Array.isArray(v)
          ? v.map((_, i) => new Parameter(name, i))
          : new Parameter(name, WHOLE)
  }
  return out as Slots<V>
}

function compileTemplate(query: Compilable): Template {
  const compiled = query.compile()
  return {
    compiled,
    parameters: compiled.parameters.map((p) => (p instanceof Parameter ? p : { value: p })),
  }
}

function parametersOf(template: Template, values: Readonly<Record<string, unknown>>): unknown[] {
  const { parameters } = template
  const out = new Array<unknown>(parameters.length)
  for (let i = 0; i < parameters.length; i++) {
    const p = parameters[i]!
    if (p instanceof Parameter) {
      const v = values[p.name]
      out[i] = p.index === WHOLE ? v : Array.isArray(v) ? v[p.index] : undefined
    } else out[i] = p.value
  }
  return out
}

/**
 * A statement `build` describes, run as `run(db, values)`: the rows it selects. `build` runs
 * once per handle and shape of `values`; the same SQL as building it per call, on every dialect
 * (each handle compiles its own).
 */
export function prepared<V extends Record<string, unknown>, R>(
  build: (db: Db, $: Slots<V>) => Compilable<R>,
): (db: Db, values: V) => Promise<R[]> {
  const templates = perDatabase(() => new LRUCache<string, Template>({ max: SHAPES }))
  return async (db, values) => {
    const byShape = templates(db)
    const shape = shapeOf(values)
    let template = byShape.get(shape)
    if (template === undefined) {
      template = compileTemplate(build(db, standIns(values)))
      byShape.set(shape, template)
    }
    const { rows } = await db.executeQuery<R>({ ...template.compiled, parameters: parametersOf(template, values) })
    return rows
  }
}
