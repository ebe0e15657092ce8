/**
 * Where a page's JavaScript goes: each script's compressed size split between the packages (or
 * project folders) its source map names, in proportion to their share of the minified bytes.
 * Needs a build with `FERRY_SOURCE_MAPS=1`; scripts without a map count as "(no source map)".
 */
import { existsSync, readFileSync } from 'node:fs'
import { SourceMapConsumer } from 'source-map-js'

/** `node_modules/@scope/name/…` → `@scope/name`; a project file → its first two path segments. */
export function owner(source: string): string {
  const at = source.lastIndexOf('node_modules/')
  if (at === -1)
    return source
      .replace(/^webpack:\/\/(_N_E\/)?/, '')
      .replace(/^\.\//, '')
      .split('/')
      .slice(0, 2)
      .join('/')
  const [first = '', second = ''] = source.slice(at + 'node_modules/'.length).split('/')
  return first.startsWith('@') ? `${first}/${second}` : first
}

/** Minified bytes of `code` per owner of the source each mapping points at (a mapping runs to the next one). */
export function bytesByOwner(code: string, map: string): Map<string, number> {
  const lines = code.split('\n')
  const marks: Array<{ line: number; column: number; owner: string }> = []
  new SourceMapConsumer(JSON.parse(map)).eachMapping((m) => {
    marks.push({ line: m.generatedLine, column: m.generatedColumn, owner: m.source ? owner(m.source) : '(unmapped)' })
  })
  const out = new Map<string, number>()
  marks.forEach((mark, i) => {
    const next = marks[i + 1]
    const end = next && next.line === mark.line ? next.column : (lines[mark.line - 1]?.length ?? 0)
    out.set(mark.owner, (out.get(mark.owner) ?? 0) + Math.max(0, end - mark.column))
  })
  return out
}

export interface Script {
  file: string
  gz: number
}

/** Compressed bytes per owner over all `scripts` (files under `outDir`), largest first. */
export function breakdown(outDir: string, scripts: Script[]): Array<[string, number]> {
  const total = new Map<string, number>()
  for (const { file, gz } of scripts) {
    const path = `${outDir}${file}`
    if (!existsSync(`${path}.map`)) {
      total.set('(no source map)', (total.get('(no source map)') ?? 0) + gz)
      continue
    }
    const raw = bytesByOwner(readFileSync(path, 'utf8'), readFileSync(`${path}.map`, 'utf8'))
    const sum = [...raw.values()].reduce((a, b) => a + b, 0) || 1
    for (const [name, bytes] of raw) total.set(name, (total.get(name) ?? 0) + (gz * bytes) / sum)
  }
  return [...total].sort((a, b) => b[1] - a[1])
}
