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
  if (at === -1) return source.replace(/^webpack:\/\/(_N_E\/)?/, '').replace(/^\.\//, '').split('/').slice(0, 2).join('/')
  const [first = '', second = ''] = source.slice(at + 'node_modules/'.length).split('/')
  return first.startsWith('@') ? `${first}/${second}` : first
}

/** Minified bytes of `code` per owner of the source each mapping points at. */
export function bytesByOwner(code: string, map: string): Map<string, number> {
  const lines = code.split('\n')
  const out = new Map<string, number>()
  let last: { line: number; column: number; owner: string } | null = null
  const add = (name: string, bytes: number) => out.set(name, (out.get(name) ?? 0) + Math.max(0, bytes))
  new SourceMapConsumer(JSON.parse(map)).eachMapping((m) => {
    if (last) add(last.owner, m.generatedLine === last.line ? m.generatedColumn - last.column : (lines[last.line - 1]?.length ?? 0) - last.column)
    last = { line: m.generatedLine, column: m.generatedColumn, owner: m.source ? owner(m.source) : '(unmapped)' }
  })
  if (last !== null) {
    const end: { line: number; column: number; owner: string } = last
    add(end.owner, (lines[end.line - 1]?.length ?? 0) - end.column)
  }
  return out
}

export interface Script { file: string; gz: number }

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
