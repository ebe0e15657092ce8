/**
 * PostgreSQL restarted under a running Ferry: while it is down every call that needs it answers
 * a 503 problem with Retry-After (never a 500), nothing is half-recorded, and once it is back
 * Ferry serves again without a restart. Starts its own cluster (it has to stop it).
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import {
  bearer,
  expectProblem,
  httpFetch,
  jsonBody,
  servedAgain,
  signup,
  startTestServer,
  type Fetch,
  type TestServer,
} from './helpers.ts'
import { startOwnPostgres, type OwnPostgres } from '../../services/postgres-server.ts'

let pg: OwnPostgres
let server: TestServer
let f: Fetch
before(async () => {
  pg = await startOwnPostgres()
  server = await startTestServer(1024 * 1024, { databaseUrl: await pg.createDatabase() })
  f = httpFetch(server.url)
})
after(async () => {
  await server?.stop()
  await pg?.stop()
})

test(
  'PostgreSQL down: 503 problems with Retry-After; back up: served again, nothing half-recorded',
  { timeout: 60_000 },
  async () => {
    const { token } = await signup(f, 'admin@outage.test')
    assert.equal((await f('/v1/apps', jsonBody({ slug: 'before-app', name: 'Before' }, token))).status, 201)

    await pg.halt()
    for (const [label, res] of [
      ['list apps', await f('/v1/apps', bearer(token))],
      ['create an app', await f('/v1/apps', jsonBody({ slug: 'during-app', name: 'During' }, token))],
      ['update check', await f('/v1/apps/before-app/update?version=1.0.0&platform=windows&arch=x64')],
    ] as const) {
      assert.equal(res.headers.get('retry-after'), '5', label)
      await expectProblem(res, 503, 'unavailable')
    }
    await expectProblem(await f('/v1/health'), 503, 'unavailable')

    await pg.resume()
    // The pool reconnects on the next request; until then only the documented 503 may answer.
    const served = await servedAgain(() => f('/v1/apps', bearer(token)))
    const list = (await served.json()) as { items: Array<{ slug: string }> }
    assert.deepEqual(
      list.items.map((a) => a.slug),
      ['before-app'],
      'the app refused during the outage was not recorded',
    )
    assert.equal((await f('/v1/apps', jsonBody({ slug: 'after-app', name: 'After' }, token))).status, 201)
  },
)
