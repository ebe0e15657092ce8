/**
 * The logging page says it lists every message the server writes: its tables are checked against
 * the logger calls in server/ (message and level), both ways.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { test } from 'node:test'

const root = join(import.meta.dirname, '..', '..')
const page = 'pages/docs/getting-started/logging.mdx'

interface Logged {
  level: string
  message: RegExp
  text: string
  where: string
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** `logger.warn({ … }, 'message')` and the like: the level and the last argument, when it is a literal. */
function loggerCalls(file: string): Array<Logged | { level: string; dynamic: string; where: string }> {
  const text = readFileSync(file, 'utf8')
  const calls: Array<Logged | { level: string; dynamic: string; where: string }> = []
  for (const m of text.matchAll(/\blogger\??\.(fatal|error|warn|info|debug|trace)\(/g)) {
    let depth = 1
    let i = m.index + m[0].length
    let quote = ''
    for (; i < text.length && depth > 0; i++) {
      const c = text[i]!
      if (quote) {
        if (c === '\\') i++
        else if (c === quote) quote = ''
      } else if (c === "'" || c === '"' || c === '`') quote = c
      else if (c === '(' || c === '{' || c === '[') depth++
      else if (c === ')' || c === '}' || c === ']') depth--
    }
    // A formatter may leave a trailing comma after the last argument of a call split over lines.
    const args = text
      .slice(m.index + m[0].length, i - 1)
      .trim()
      .replace(/,$/, '')
    const where = `${relative(root, file)}:${text.slice(0, m.index).split('\n').length}`
    const last = /(?:^|,)\s*(['`])((?:(?!\1)[^\\]|\\.)*)\1\s*$/.exec(args)
    if (!last) {
      calls.push({ level: m[1]!, dynamic: args.split(',').pop()?.trim() ?? args, where })
      continue
    }
    const literal = last[2]!
    const message =
      last[1] === '`'
        ? new RegExp(
            `^${literal
              .split(/\$\{[^}]*\}/)
              .map(escape)
              .join('.+')}$`,
          )
        : new RegExp(`^${escape(literal)}$`)
    calls.push({ level: m[1]!, message, text: literal, where })
  }
  return calls
}

/** Rows of the page's message tables: `| \`msg\` | level | … |`. */
function documented(): Array<{ msg: string; level: string; line: number }> {
  const lines = readFileSync(join(root, page), 'utf8').split('\n')
  const rows: Array<{ msg: string; level: string; line: number }> = []
  let inTable = false
  lines.forEach((line, index) => {
    if (line.startsWith('| `msg` | Level |')) inTable = true
    else if (!line.startsWith('|')) inTable = false
    else if (inTable && !line.startsWith('| ---')) {
      const [msg = '', level = ''] = line.split(' | ').map((cell) => cell.replace(/^\| /, '').trim())
      rows.push({ msg: msg.replace(/^`|`$/g, ''), level, line: index + 1 })
    }
  })
  return rows
}

/** Messages built at run time, and the rows that stand for them. */
const DYNAMIC: Record<string, RegExp> = {
  // The blob store's start-up check: BlobStoreStartupError's message, which names the variable.
  'error.message': /^FERRY_BLOB_URL: /,
}

test(`${page} lists every message the server logs, at its level, and no other`, () => {
  const calls = sourceFiles(join(root, 'server')).flatMap(loggerCalls)
  const rows = documented()
  assert.ok(rows.length > 20, `the page's message tables were read (${rows.length} rows)`)
  assert.ok(calls.length > 20, `the logger calls were found (${calls.length})`)

  const missing: string[] = []
  const covered = new Set<number>()
  for (const call of calls) {
    const pattern = 'message' in call ? call.message : DYNAMIC[call.dynamic]
    if (!pattern) {
      missing.push(
        `${call.where}: a message built at run time (${'dynamic' in call ? call.dynamic : ''}); add it to DYNAMIC with its row`,
      )
      continue
    }
    const matching = rows.filter((row) => pattern.test(row.msg))
    if (!matching.length)
      missing.push(
        `${call.where}: ${call.level} ${'text' in call ? JSON.stringify(call.text) : call.dynamic} is not in the page`,
      )
    for (const row of matching) {
      covered.add(row.line)
      if (row.level !== call.level)
        missing.push(
          `${page}:${row.line}: ${JSON.stringify(row.msg)} says ${row.level}, ${call.where} logs it at ${call.level}`,
        )
    }
  }
  assert.deepEqual(missing, [])
  const stale = rows
    .filter((row) => !covered.has(row.line))
    .map((row) => `${page}:${row.line}: ${JSON.stringify(row.msg)} is logged nowhere in server/`)
  assert.deepEqual(stale, [])
})
