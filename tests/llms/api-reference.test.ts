import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { createContext } from '../../lib/codegen/context.ts'
import { loadSpec } from '../../lib/codegen/load.ts'
import { SAMPLE_TARGETS } from '../../lib/codegen/samples.ts'
import { transformSpec } from '../../lib/codegen/transform/operation.ts'
import { apiReferencePages } from '../../lib/markdown-twins/api-reference.ts'

const spec = join(import.meta.dirname, '../../openapi/openapi.yaml')
const pages = await apiReferencePages(spec)
const { tags, webhooks } = transformSpec(createContext(await loadSpec(spec)))
const operations = tags.flatMap((t) => t.operations)
const byRoute = new Map(pages.map((p) => [p.route, p]))

const tableRow = (markdown: string, name: string) =>
  new RegExp(`^\\| \`${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\` \\|`, 'm').test(markdown)

test('one twin per generated page: the overview, every tag intro, every operation, the events intro and every event', () => {
  assert.equal(pages.length, 1 + tags.length + operations.length + 1 + webhooks.length)
  assert.ok(byRoute.has('/docs/api'))
  assert.ok(byRoute.has('/docs/api/events/events-introduction'))
  for (const op of operations) assert.ok(byRoute.has(op.route), op.route)
})

test("an event twin has every header and body field as a table row, and the event's example", () => {
  assert.ok(webhooks.length >= 11)
  for (const hook of webhooks) {
    const md = byRoute.get(hook.route)!.markdown
    assert.ok(md.startsWith(`# ${hook.type}\n`), hook.route)
    for (const row of [...hook.headers, ...hook.body.rows])
      assert.ok(tableRow(md, row.name), `${hook.route}: ${row.name}`)
    assert.ok(md.includes(`"type": ${JSON.stringify(hook.type)}`), `${hook.route}: example`)
    assert.doesNotMatch(md, /<SchemaTable/, `${hook.route}: no JSX in a twin`)
  }
})

test('an operation twin has method, path, access, every parameter and body field, every response and every code sample', () => {
  for (const op of operations) {
    const md = byRoute.get(op.route)!.markdown
    assert.ok(md.startsWith(`# ${op.summary}\n\n\`${op.method.toUpperCase()} ${op.path}\`\n`), op.route)
    assert.match(md, /^## Authorization$/m)
    assert.ok(md.includes(`**Permission:** \`${op.access.permission}\``), op.route)
    for (const p of op.parameters) assert.ok(tableRow(md, p.name), `${op.route}: parameter ${p.name}`)
    for (const row of op.requestBody?.rows ?? [])
      assert.ok(tableRow(md, row.name), `${op.route}: body field ${row.name}`)
    if (op.requestBody?.example !== undefined) assert.match(md, /filename="Request example"/)
    for (const r of op.responses) {
      assert.ok(md.includes(`\n### ${r.status} ${r.statusText}\n`), `${op.route}: response ${r.status}`)
      for (const row of r.isProblem ? [] : (r.body?.rows ?? []))
        assert.ok(tableRow(md, row.name), `${op.route}: ${r.status} field ${row.name}`)
    }
    for (const { label } of [...SAMPLE_TARGETS, ...op.codeSamples])
      assert.ok(md.includes(`\n### ${label}\n\n\`\`\``), `${op.route}: ${label} sample`)
  }
})

test("a twin carries the contract's x-codeSamples after the generated sample of their language", () => {
  const md = byRoute.get(operations.find((o) => o.operationId === 'checkForUpdate')!.route)!.markdown
  const headings = [...md.matchAll(/^### (.+)$/gm)].map((m) => m[1])
  assert.deepEqual(headings.slice(headings.indexOf('curl'), headings.indexOf('curl') + 3), [
    'curl',
    'curl (retry loop)',
    'JavaScript',
  ])
  assert.ok(md.includes('\n### curl (retry loop)\n\n```bash\n# A 503 means'), 'the retry loop is a bash block')
})

test('the twins carry no MDX: no imports, no components, no escaped braces', () => {
  for (const page of pages) {
    const prose = page.markdown.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1$/gm, '')
    assert.doesNotMatch(prose, /^import |<(SchemaTable|Endpoint|TryIt|MethodBadge|Tabs)\b|\\[{}]/m, page.route)
  }
})

test('the overview lists every operation with a link to its page', () => {
  const overview = byRoute.get('/docs/api')!.markdown
  for (const op of operations) assert.ok(overview.includes(`](${op.route})`), op.route)
})
