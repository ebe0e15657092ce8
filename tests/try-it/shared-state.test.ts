/**
 * Try it's shareable request (components/api/try-it/shared-state.ts) and its live samples
 * (live-samples.ts), on real operations of the contract: what goes in the URL, what a URL can
 * restore, and that neither carries a credential.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { initialDraft } from '../../components/api/try-it/build-request.ts'
import { draftHar } from '../../components/api/try-it/live-samples.ts'
import { readShared, sharedDraft, toShared, TRY_PARAM } from '../../components/api/try-it/shared-state.ts'
import { renderSamples } from '../../lib/codegen/samples.ts'
import { tryItRequest } from '../../lib/codegen/transform/try-it.ts'
import { loadReal } from '../codegen/helpers.ts'

const { tags } = await loadReal()
const operation = (id: string) => tryItRequest(tags.flatMap((t) => t.operations).find((o) => o.operationId === id)!)
const search = (value: unknown) => `?${new URLSearchParams({ [TRY_PARAM]: JSON.stringify(value) })}`

test('only what differs from the examples is shared; the signup key never is', () => {
  const request = operation('searchAppVersions')
  const draft = { ...initialDraft(request), signupKey: 'secret-signup-key' }
  draft.params['path:app'] = 'tide-clock'
  draft.params['query:channel'] = 'beta'
  const shared = toShared('searchAppVersions', request, draft, 'server', 'http://127.0.0.1:8080')
  assert.deepEqual(shared, {
    operation: 'searchAppVersions',
    target: 'server',
    server: 'http://127.0.0.1:8080',
    params: { 'path:app': 'tide-clock', 'query:channel': 'beta' },
  })
  assert.doesNotMatch(JSON.stringify(shared), /secret-signup-key/)
  assert.deepEqual(toShared('searchAppVersions', request, initialDraft(request), 'sandbox', 'http://x'), {
    operation: 'searchAppVersions',
    target: 'sandbox',
  })
})

test('a shared URL restores the request; another operation, unknown fields and bad values are ignored', () => {
  const request = operation('createApp')
  const body = '{"slug":"from-a-link"}'
  const restored = readShared(
    search({ operation: 'createApp', target: 'server', server: 'https://ferry.internal:8443', body }),
    'createApp',
    request,
  )
  assert.deepEqual(restored, { operation: 'createApp', target: 'server', server: 'https://ferry.internal:8443', body })
  assert.equal(sharedDraft(request, restored).body, body)
  assert.equal(readShared(search({ operation: 'listApps', body }), 'createApp', request), undefined)
  assert.equal(readShared('?try=%7Bnot-json', 'createApp', request), undefined)
  assert.deepEqual(
    readShared(
      search({
        operation: 'createApp',
        target: 'server',
        server: 'javascript:alert(1)',
        body: 42,
        params: { 'path:nope': 'x' },
      }),
      'createApp',
      request,
    ),
    { operation: 'createApp', target: 'sandbox' },
  )
  const search2 = operation('searchAppVersions')
  assert.deepEqual(
    readShared(
      search({ operation: 'searchAppVersions', params: { 'path:app': 'a', 'header:Authorization': 'Bearer stolen' } }),
      'searchAppVersions',
      search2,
    )?.params,
    { 'path:app': 'a' },
  )
})

test('the live samples show the edited request with placeholders for credentials', () => {
  const request = operation('createApp')
  const draft = {
    ...initialDraft(request),
    body: '{"slug":"edited-in-try-it","name":"Edited"}',
    signupKey: 'secret-signup-key',
  }
  const har = draftHar(request, draft, 'https://updates.example.com')
  assert.ok(har)
  const samples = renderSamples(har)
  assert.equal(samples.length, 9)
  for (const sample of samples) {
    assert.match(sample.code, /edited-in-try-it/, sample.label)
    assert.match(sample.code, /<token>/, sample.label)
    assert.doesNotMatch(sample.code, /secret-signup-key/, sample.label)
  }
  assert.equal(draftHar(request, { ...draft, body: '{not json' }, 'https://updates.example.com'), undefined)
})
