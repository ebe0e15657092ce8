/** call_operation's contract check on answers that break the contract in each way it can. */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { Contract } from '../../mcp/contract.ts'
import { sourceLibrary } from '../../mcp/library-sources.ts'
import { checkAnswer } from '../../contract/answer.ts'

const contract = new Contract(sourceLibrary(join(import.meta.dirname, '..', '..')))
const createApp = contract.get('createApp').spec
const deleteApp = contract.get('deleteApp').spec
const app = {
  slug: 'notes',
  name: 'Notes',
  description: '',
  private: false,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
}
const json = (status: number, body: unknown) => ({
  status,
  contentType: 'application/json',
  json: body,
  bytes: 1,
  truncated: false,
})

test('a documented answer passes', () => {
  assert.deepEqual(checkAnswer(createApp, json(201, app)), { ok: true, problems: [], notes: [] })
})

test('a body that breaks the schema names each member', () => {
  const check = checkAnswer(createApp, json(201, { ...app, slug: 'Not A Slug', private: 'no', createdAt: undefined }))
  assert.equal(check.ok, false)
  assert.deepEqual(check.problems.sort(), [
    '/createdAt is required',
    '/private must be boolean',
    '/slug must match ^[a-z0-9][a-z0-9-]{1,62}$',
  ])
})

test('an undocumented status, content type, or body of a bodiless status is a mismatch', () => {
  assert.deepEqual(checkAnswer(createApp, json(200, app)).problems, [
    'status 200 is not an answer createApp documents (it documents 201, 400, 401, 403, 409, 413, 500, 503)',
  ])
  assert.deepEqual(checkAnswer(createApp, { ...json(201, app), contentType: 'text/html' }).problems, [
    'content type "text/html" is not documented for status 201 (documented: application/json)',
  ])
  assert.deepEqual(
    checkAnswer(deleteApp, { status: 204, contentType: 'application/json', bytes: 2, truncated: false }).problems,
    ['status 204 is documented without a body, but the answer has 2 bytes'],
  )
  assert.deepEqual(
    checkAnswer(createApp, {
      status: 201,
      contentType: 'application/json',
      jsonError: 'Unexpected token <',
      bytes: 5,
      truncated: false,
    }).problems,
    ['the body is not JSON: Unexpected token <'],
  )
})

test('a body cut at the read limit is not schema-checked, and says so', () => {
  const check = checkAnswer(createApp, { ...json(201, undefined), truncated: true })
  assert.equal(check.ok, true)
  assert.deepEqual(check.notes, ['the body was too large to read whole, so it is not checked against the schema'])
})
