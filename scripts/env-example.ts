/**
 * Renders `.env.example` from `VARIABLES` in server/config.ts and writes it (`npx tsx
 * scripts/env-example.ts`); tests/server/config.test.ts fails when the file differs.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { VARIABLES, type Variable } from '../server/runtime/config.ts'

const WIDTH = 100

/** `text` as `# ` comment lines of at most WIDTH characters. */
function comment(text: string): string[] {
  const lines: string[] = []
  let line = '#'
  for (const word of text.split(/\s+/)) {
    if (line.length + 1 + word.length > WIDTH && line !== '#') {
      lines.push(line)
      line = '#'
    }
    line += ` ${word}`
  }
  return [...lines, line]
}

export function renderEnvExample(): string {
  const out = [
    '# Ferry server environment, generated from VARIABLES in server/config.ts by',
    '# `npx tsx scripts/env-example.ts` (edit there). pages/docs/getting-started/env-overview.mdx',
    '# explains each variable. Copy to .env for your process manager, or export the variables',
    '# before `npm run server`. Every variable is optional. An uncommented value is the default; a',
    '# commented-out one is an example, or a default that matters only with the variable it needs.',
    '',
  ]
  for (const variable of Object.values(VARIABLES) as Array<Variable<unknown>>) {
    if (variable.group && out.at(-1) !== '') out.push('')
    const needs =
      variable.needs && !variable.description.includes(variable.needs) ? ` Only with ${variable.needs}.` : ''
    out.push(...comment(variable.description + needs))
    if ('default' in variable) out.push(`${variable.needs ? '# ' : ''}${variable.name}=${variable.default}`)
    else out.push(`# ${variable.name}=${variable.example}`)
  }
  return `${out.join('\n')}\n`
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(join(import.meta.dirname, '..', '.env.example'), renderEnvExample())
}
