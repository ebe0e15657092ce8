/**
 * Try it's request building and response checking, on real operations of the contract: the
 * data a page carries (lib/codegen's tryItRequest) becomes the request the panel sends, and
 * answers are judged with the server's own validators.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildRequest, initialDraft } from '../../components/api/try-it/build-request.ts'
import { checkResponse } from '../../components/api/try-it/check-response.ts'
import { tryItRequest } from '../../lib/codegen/transform/try-it.ts'
import { loadReal } from '../codegen/helpers.ts'

const { tags } = await loadReal()
const operation = (id: string) => tryItRequest(tags.flatMap((t) => t.operations).find((o) => o.operationId === id)!)

test('a JSON operation is prefilled with its example and sent with the token', async () => {
  const request = operation('createApp')
  const draft = initialDraft(request)
  assert.deepEqual(JSON.parse(draft.body), {
    slug: 'saltmarsh',
    name: 'Saltmarsh',
    description: 'A field journal for coastal surveys.',
    private: false,
  })
  const built = buildRequest(request, draft, 'https://sandbox.ferry.test/', 'tok')
  assert.ok(built.ok)
  assert.equal(built.url, 'https://sandbox.ferry.test/v1/apps')
  assert.equal(built.init.method, 'POST')
  assert.equal(built.init.headers.get('authorization'), 'Bearer tok')
  assert.equal(built.init.headers.get('content-type'), 'application/json')
  assert.equal(built.init.body, draft.body)
})

test('path parameters are filled and encoded; optional query parameters start empty and are left out', async () => {
  const request = operation('searchAppVersions')
  const draft = initialDraft(request)
  assert.equal(draft.params['path:app'], 'harbor-notes')
  assert.equal(draft.params['query:cursor'], '')
  const built = buildRequest(
    request,
    { ...draft, params: { ...draft.params, 'path:app': 'a b', 'query:channel': 'beta' } },
    'http://127.0.0.1:8080',
    undefined,
  )
  assert.ok(built.ok)
  assert.equal(built.url, 'http://127.0.0.1:8080/v1/apps/a%20b/versions?channel=beta')
  assert.equal(built.init.headers.get('authorization'), null)
})

test('what cannot be sent is named, field by field', async () => {
  const request = operation('createApp')
  const built = buildRequest(request, { ...initialDraft(request), body: '{"slug": ' }, 'http://x', 't')
  assert.equal(built.ok, false)
  assert.match(built.ok ? '' : built.errors.join(' '), /^The body is not valid JSON: .+/)
  const search = operation('searchAppVersions')
  const missing = buildRequest(search, { ...initialDraft(search), params: {} }, 'http://x', 't')
  assert.deepEqual(missing.ok ? [] : missing.errors, ['Path parameter app is required.'])
})

test('an upload is a multipart form with its fields and files', async () => {
  const request = operation('uploadVersion')
  assert.equal(request.body?.kind, 'form')
  const draft = initialDraft(request)
  const file = new File(['x'], 'HarborNotes-Setup-1.4.0.exe')
  const built = buildRequest(request, { ...draft, files: { files: [file] } }, 'http://x', 't')
  assert.ok(built.ok && built.init.body instanceof FormData)
  const form = built.init.body as FormData
  assert.equal(form.get('version'), '1.4.0')
  assert.equal((form.get('files') as File).name, 'HarborNotes-Setup-1.4.0.exe')
  assert.equal(built.init.headers.get('content-type'), null, 'the browser sets the multipart boundary itself')
})

test('answers are checked against the documented status, content type and schema', () => {
  const app = {
    slug: 'harbor-notes',
    name: 'Harbor Notes',
    description: '',
    private: false,
    createdAt: '2025-03-14T09:30:00Z',
    updatedAt: '2025-03-14T09:30:00Z',
  }
  assert.deepEqual(checkResponse('createApp', 201, 'application/json', { json: app, empty: false }), {
    verdict: 'matches',
    details: [],
  })
  assert.deepEqual(
    checkResponse('createApp', 201, 'application/json', { json: { ...app, slug: 'Not A Slug' }, empty: false }),
    { verdict: 'differs', details: ['/slug: must match ^[a-z0-9][a-z0-9-]{1,62}$'] },
  )
  assert.deepEqual(checkResponse('createApp', 418, 'application/json', { json: {}, empty: false }).details, [
    'Status 418 is not documented for this operation.',
  ])
  assert.match(
    checkResponse('createApp', 201, 'text/html', { empty: false }).details[0] ?? '',
    /Content type text\/html is not documented for status 201/,
  )
  assert.deepEqual(checkResponse('deleteApp', 204, null, { empty: true }), { verdict: 'matches', details: [] })
  assert.equal(checkResponse('deleteApp', 204, 'text/plain', { empty: false }).verdict, 'differs')
})
