import assert from 'node:assert/strict'
import { test } from 'node:test'
import { guardPrefetch, isConstrainedConnection } from '../../components/constrained-prefetch'

test('a connection is constrained when it saves data or is 2g or slower', () => {
  assert.equal(isConstrainedConnection({ saveData: true, effectiveType: '4g' }), true)
  assert.equal(isConstrainedConnection({ saveData: false, effectiveType: '2g' }), true)
  assert.equal(isConstrainedConnection({ effectiveType: 'slow-2g' }), true)
})

test('a connection is not constrained at 3g or 4g without data saving, nor when the browser does not say', () => {
  assert.equal(isConstrainedConnection({ saveData: false, effectiveType: '3g' }), false)
  assert.equal(isConstrainedConnection({ saveData: false, effectiveType: '4g' }), false)
  assert.equal(isConstrainedConnection({}), false)
  assert.equal(isConstrainedConnection(undefined), false)
})

test('the guarded prefetch fetches nothing while constrained and passes every argument through otherwise', async () => {
  const calls: unknown[][] = []
  const prefetch = async (...args: unknown[]) => void calls.push(args)
  let constrained = true
  const guarded = guardPrefetch(prefetch, () => constrained)
  await guarded('/docs/telemetry', '/docs/telemetry', { priority: true })
  assert.deepEqual(calls, [])
  constrained = false
  await guarded('/docs/telemetry', '/docs/telemetry', { priority: true })
  assert.deepEqual(calls, [['/docs/telemetry', '/docs/telemetry', { priority: true }]])
})
