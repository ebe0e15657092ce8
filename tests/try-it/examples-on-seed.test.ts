/**
 * Every operation's Try it example, sent as the panel sends it in sandbox mode (the demo
 * session's token where the operation takes one), succeeds against a freshly seeded sandbox:
 * the reader's first send answers 2xx. Operations run in the order e2e/try-it-walk.spec.ts
 * walks them (sidebar order, deletions last), on one sandbox.
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { buildRequest, initialDraft } from '../../components/api/try-it/build-request.ts'
import { NOT_IN_SEED, sandboxValues } from '../../components/api/try-it/sandbox-examples.ts'
import { DEMO_LOGIN, createSandbox } from '../../server/runtime/browser.ts'
import { tryItRequest } from '../../lib/codegen/transform/try-it.ts'
import { loadReal } from '../codegen/helpers.ts'

const { tags } = await loadReal()
// The e2e walk's order: tags as in the sidebar, each tag's pages by file name (so login comes before signup).
const operations = tags.flatMap((t) => [...t.operations].sort((a, b) => a.slug.localeCompare(b.slug)))
const deletes = operations.filter((o) => o.method.toLowerCase() === 'delete')
const ordered = [...operations.filter((o) => o.method.toLowerCase() !== 'delete'), ...deletes]

let sandbox: Awaited<ReturnType<typeof createSandbox>>
let token = ''
async function logIn() {
  const res = await sandbox.request('/v1/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO_LOGIN),
  })
  token = ((await res.json()) as { token: string }).token
}
/** Like the panel: a 401 to the held demo token (a password change ends sessions) signs in again once. */
async function withSession(send: () => Response | Promise<Response>): Promise<Response> {
  const res = await send()
  if (res.status !== 401) return res
  await logIn()
  return send()
}
before(async () => {
  sandbox = await createSandbox({ publicUrl: 'https://sandbox.ferry.test' })
  await logIn()
})
after(async () => sandbox.close())

for (const op of ordered) {
  test(`${op.operationId} (${op.method.toUpperCase()} ${op.path}): the example answers 2xx`, async () => {
    const request = tryItRequest(op)
    const usesToken = request.security.some((alternative) => alternative.includes('bearerAuth'))
    const call = async (path: string) => {
      const res = await withSession(() => sandbox.request(path, { headers: { authorization: `Bearer ${token}` } }))
      return { status: res.status, json: await res.json() }
    }
    const values = await sandboxValues(op.operationId, call)
    const example = initialDraft(request)
    const draft = { ...example, params: { ...example.params, ...values.params }, body: values.body ?? example.body }
    const files: Record<string, File[]> = {}
    if (request.body?.kind === 'form')
      for (const f of request.body.files)
        files[f.name] = f.examples.map((name) => new File(['An example file.\n'], name))
    const signupKey = request.security.some((a) => a.includes('signupKey')) ? sandbox.signupKey : ''
    let url = ''
    const send = () => {
      const built = buildRequest(
        request,
        { ...draft, files, signupKey },
        'https://sandbox.ferry.test',
        usesToken ? token : undefined,
      )
      assert.ok(built.ok, built.ok ? '' : built.errors.join(' '))
      url = built.url
      return sandbox.fetch(new Request(built.url, built.init))
    }
    const res = usesToken ? await withSession(send) : await send()
    const text = await res.text()
    // A download's documented success is a redirect to the file.
    const redirects = op.responses.some((r) => r.status === '302')
    if (NOT_IN_SEED[op.operationId]) {
      assert.equal(
        res.status,
        404,
        `${request.method} ${url} needs ${NOT_IN_SEED[op.operationId]} the seed lacks: expected its 404, got ${res.status}: ${text.slice(0, 300)}`,
      )
      return
    }
    assert.ok(
      (res.status >= 200 && res.status < 300) || (redirects && res.status === 302),
      `${request.method} ${url} answered ${res.status}: ${text.slice(0, 300)}`,
    )
  })
}
