import assert from 'node:assert/strict'
import { test } from 'node:test'
import { escapeMdx, renderOperationPage } from '../../lib/codegen/emit/mdx.ts'
import { operationSamples } from '../../lib/codegen/samples.ts'
import { loadReal } from './helpers.ts'

const { ctx, tags } = await loadReal()
const operations = tags.flatMap((t) => t.operations)
const pageFor = (id: string) => {
  const op = operations.find((o) => o.operationId === id)!
  return { op, mdx: renderOperationPage(op, operationSamples(op, ctx.serverUrl)) }
}

test('the search page shows method, path, permission, every parameter, four samples and Try it', () => {
  const { op, mdx } = pageFor('searchAppVersions')
  assert.match(mdx, /<Endpoint method="GET" path="\/v1\/apps\/\{app\}\/versions" \/>/)
  assert.match(mdx, /\*\*Permission:\*\* `authenticated`/)
  assert.match(mdx, /\*\*Authentication:\*\* Bearer token/)
  const names = ['app', 'channel', 'platform', 'arch', 'published', 'critical', 'limit', 'cursor']
  assert.deepEqual(op.parameters.map((p) => p.name).sort(), [...names].sort())
  for (const name of names) assert.ok(mdx.includes(`{"name":"${name}"`), `parameter ${name} missing from the tables`)
  assert.match(mdx, /<Tabs items=\{\["curl","JavaScript","Python","Go","Java","C#","PHP","Ruby","Rust"\]\}/)
  for (const lang of ['bash', 'js', 'python', 'go', 'java', 'csharp', 'php', 'ruby', 'rust'])
    assert.match(mdx, new RegExp('^```' + lang + '$', 'm'))
  assert.match(mdx, /<TryIt href="\/demo#\/apps\/searchAppVersions"/)
  assert.match(mdx, /^openapi: "#\/paths\/~1v1~1apps~1\{app\}~1versions\/get"$/m)
})

test('the upload page shows its permission and every error it can return', () => {
  const { mdx } = pageFor('uploadVersion')
  assert.match(mdx, /\*\*Permission:\*\* `apps\.upload`/)
  for (const status of ['201', '400', '401', '403', '404', '409', '413', '500'])
    assert.match(mdx, new RegExp(`^### ${status} `, 'm'))
  assert.match(mdx, /`multipart\/form-data`, required/)
})

test('the update check documents 204 as "no update"', () => {
  const { mdx } = pageFor('checkForUpdate')
  assert.match(mdx, /^### 204 No Content$/m)
  assert.match(mdx, /\*\*Permission:\*\* `public`/)
  assert.match(mdx, /\*\*Authentication:\*\* None/)
})

test("the contract's x-codeSamples are tabs beside the generated sample of their language, under their label", () => {
  const { op, mdx } = pageFor('checkForUpdate')
  const retry = op.codeSamples.find((s) => s.label === 'curl (retry loop)')
  assert.ok(retry, 'checkForUpdate has its retry loop sample')
  assert.equal(retry.language, 'bash')
  assert.match(mdx, /<Tabs items=\{\["curl","curl \(retry loop\)","JavaScript",/)
  const tabs = mdx.split('<Tabs.Tab>')
  assert.ok(tabs[2]?.includes('```bash\n' + retry.code + '\n```'), 'the second tab holds the retry loop')
  assert.match(pageFor('uploadVersion').mdx, /<Tabs items=\{\["curl","Ferry CLI","JavaScript",/)
})

test('escapeMdx escapes braces and tags in text but not in code', () => {
  const given = 'Send `Authorization: Bearer <token>` to {base}/v1 <b>now</b>\n```json\n{ "a": 1 }\n```'
  const want = 'Send `Authorization: Bearer <token>` to \\{base\\}/v1 &lt;b>now&lt;/b>\n```json\n{ "a": 1 }\n```'
  assert.equal(escapeMdx(given), want)
})
