/** The sandbox target keeps working past its demo session's 24 hours, as an editor's long-lived agent needs. */
import assert from 'node:assert/strict'
import { mock, test } from 'node:test'
import { sandboxTarget } from '../../mcp/targets.ts'

test('a sandbox call a day later signs the demo admin in again', async () => {
  const target = sandboxTarget()
  try {
    assert.equal((await target.send('/v1/apps', { method: 'GET' })).status, 200)
    mock.timers.enable({ apis: ['Date'], now: Date.now() + 25 * 60 * 60 * 1000 })
    try {
      const later = await target.send('/v1/apps', { method: 'GET' })
      assert.equal(later.status, 200, await later.clone().text())
      // A caller's own credentials are the caller's: no sign-in on their behalf.
      const own = await target.send('/v1/apps', { method: 'GET', headers: { authorization: 'Bearer not-a-token' } })
      assert.equal(own.status, 401)
    } finally {
      mock.timers.reset()
    }
  } finally {
    await target.close()
  }
})
