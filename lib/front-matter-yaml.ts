/**
 * @module Front matter read with the `yaml` package, and where a key or list item sits in the
 * page, for messages that name `file:line:column`. Used by blog posts and docs pages alike.
 */
import matter from 'gray-matter'
import { LineCounter, isMap, isNode, isScalar, parse as parseYaml, parseDocument } from 'yaml'

export interface FrontMatterText {
  data: Record<string, unknown>
  /** The YAML between the `---` lines. */
  yaml: string
  /** Offset of `yaml` in the page's source. */
  yamlStart: number
  /** The page after its front matter. */
  content: string
}

export interface SourcePosition {
  line: number
  column: number
}

/** A path into the front matter: a key, then list indices (`['tags', 1]`). */
export type FieldPath = readonly [string, ...number[]]

/**
 * Parses the front matter. The `yaml` package's core schema keeps `date: 2026-02-30` a string, where
 * gray-matter's default engine (js-yaml) would silently roll it over to a Date of March 2. Passing
 * options also bypasses gray-matter's cache, which would otherwise return stale results across calls.
 * Throws the `yaml` package's YAMLParseError, whose line is the file's (the YAML starts right after `---`).
 */
export function readFrontMatter(source: string): FrontMatterText {
  const parsed = matter(source, { engines: { yaml: (text) => (parseYaml(text) ?? {}) as object } })
  return { data: parsed.data, yaml: parsed.matter, yamlStart: source.indexOf(parsed.matter), content: parsed.content }
}

export const lineAt = (text: string, offset: number) => text.slice(0, offset).split('\n').length

/** Where the key at `path` (or the list item it names) is in the page; undefined when it is not there. */
export function fieldPosition(source: string, fm: FrontMatterText, path: FieldPath): SourcePosition | undefined {
  const lineCounter = new LineCounter()
  const doc = parseDocument(fm.yaml, { lineCounter })
  if (!isMap(doc.contents)) return undefined
  const [field, ...items] = path
  const pair = doc.contents.items.find((p) => isScalar(p.key) && p.key.value === field)
  const node = items.length ? doc.getIn(path, true) : pair?.key
  const offset = isNode(node) ? node.range?.[0] : undefined
  if (offset === undefined) return undefined
  const at = lineCounter.linePos(offset)
  return { line: lineAt(source, fm.yamlStart) + at.line - 1, column: at.col }
}
