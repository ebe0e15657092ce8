/**
 * The docs' updaters table (pages/docs/updaters.mdx) states each updater format's client, endpoint
 * and "no update" answer: its rows are the format objects' facts (`server/protocols/formats.ts`),
 * so neither can change without the other. Each format's endpoint is its operation's path.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { operations } from '../../contract/generated/operations.ts'
import { FORMATS, type FormatFacts } from '../../server/protocols/formats.ts'
import { PROTOCOLS } from '../../server/protocols/index.ts'

const facts: FormatFacts[] = Object.values(FORMATS)
const HEADER = '| Format | Client | Endpoint | No update |'

/** The table's rows after its header and separator, up to the first line that is not a row. */
function tableRows(): string[] {
  const lines = readFileSync(new URL('../../pages/docs/updaters.mdx', import.meta.url), 'utf8').split('\n')
  const start = lines.indexOf(HEADER)
  assert.ok(start >= 0, `pages/docs/updaters.mdx has no line ${HEADER}`)
  const rows: string[] = []
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break
    rows.push(line)
  }
  return rows
}

const rowOf = (f: FormatFacts) =>
  `| \`${f.format}\` | ${f.client} | [\`${f.endpoint}\`](${f.reference})${f.endpointNote ? ` ${f.endpointNote}` : ''} | ${f.noUpdate} |`

test("the docs' updaters table has one row per updater format, in the objects' order, stating their facts", () => {
  // Rows without a format (a second client of the format above) may follow a format's row.
  const formatRows = tableRows().filter((row) => !row.startsWith('| |'))
  assert.deepEqual(formatRows, facts.map(rowOf))
})

test("each format's object is filed under its format, and its endpoint is its operation's path", () => {
  for (const [format, protocol] of Object.entries(PROTOCOLS)) {
    assert.equal(protocol.format, format)
    const op = operations.find((o) => o.operationId === protocol.operation)
    assert.ok(op, `${format}: no operation ${protocol.operation} in the contract`)
    // `…/tauri/{channel}/…` is `/v1/apps/{app}/tauri/{channel}/…`: the same resource after the app.
    const resource = protocol.endpoint.replace(/^…\//, '').split(/[/?]/)[0]
    assert.equal(op.path.split('/')[4], resource, `${format}: ${protocol.endpoint} is not ${op.path}`)
    if (protocol.platform) assert.ok(!op.path.includes('{platform}'), `${format}: its path names the platform`)
  }
})
