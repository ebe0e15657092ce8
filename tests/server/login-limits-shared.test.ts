/**
 * Login limiting across instances: two Ferry servers on one PostgreSQL (both started in this test
 * process, each with its own app, limiter and connections) count the same login attempts (in
 * PostgreSQL, or in Redis when FERRY_REDIS_URL is set), so the limits hold in total, not per
 * instance; a correct password forgives the email's failures on both. While the store cannot be
 * reached a login answers 503, never a password check that was not counted.
 */
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { pino } from 'pino'
import type { ServerConfig } from '../../server/runtime/config.ts'
import { startServer, type RunningServer } from '../../server/runtime/node.ts'
import {
  PASSWORD,
  TEST_ITERATIONS,
  countStatuses,
  expectProblem,
  expectSpec,
  httpFetch,
  login,
  servedAgain,
  signup,
  testServerConfig,
  type Fetch,
} from './helpers.ts'
import { startOwnPostgres, startPostgres, type TestPostgres } from '../../services/postgres-server.ts'
import { startRedis } from '../../services/redis-server.ts'

let pg: TestPostgres
before(async () => {
  pg = await startPostgres()
})
after(async () => pg.stop())

interface Instances {
  nodes: Fetch[]
  /** The `loginLimits` each instance named in its 'listening' line. */
  stores: unknown[]
  stop(): Promise<void>
}

/** `count` servers on one database started together (their migrations race), with `config`. */
async function instances(count: number, config: Partial<ServerConfig>): Promise<Instances> {
  const dataDir = await mkdtemp(join(tmpdir(), 'ferry-login-limits-'))
  const stores: unknown[] = []
  const logger = pino(
    { level: 'info' },
    {
      write(line: string) {
        const entry: unknown = JSON.parse(line)
        if (entry && typeof entry === 'object' && Reflect.get(entry, 'msg') === 'listening')
          stores.push(Reflect.get(entry, 'loginLimits'))
      },
    },
  )
  const servers: RunningServer[] = await Promise.all(
    Array.from({ length: count }, () =>
      startServer({
        config: testServerConfig(dataDir, { maxUploadBytes: 1024 * 1024, ...config }),
        logger,
        passwordIterations: TEST_ITERATIONS,
      }),
    ),
  )
  return {
    nodes: servers.map((s) => httpFetch(s.url)),
    stores,
    async stop() {
      await Promise.all(servers.map((s) => s.close()))
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** Round-robin over the instances, like a balancer without affinity. */
function alternate(nodes: Fetch[]): Fetch {
  let turn = 0
  return (path, init) => nodes[turn++ % nodes.length]!(path, init)
}

for (const store of ['postgres', 'redis'] as const) {
  describe(`two instances, login attempts counted in ${store}`, () => {
    let redis: Awaited<ReturnType<typeof startRedis>> | undefined
    before(async () => {
      if (store === 'redis') redis = await startRedis()
    })
    after(async () => redis?.stop())
    /** Each test gets its own database, and its own keys in Redis (another signing secret). */
    const shared = async (config: Partial<ServerConfig> = {}) => {
      const jwtSecret = `secret-${Math.random().toString(36).slice(2)}-0123456789abcdef`
      return instances(2, {
        databaseUrl: await pg.createDatabase(),
        jwtSecret,
        ...(redis ? { redisUrl: redis.url } : {}),
        ...config,
      })
    }

    test('failures for one email are limited in total, and a correct password forgives them on both', async () => {
      const pair = await shared()
      try {
        assert.deepEqual(pair.stores, [store, store], 'the listening line names the store')
        const next = alternate(pair.nodes)
        await signup(next, 'ada@limits.test')
        for (let i = 0; i < 9; i++)
          assert.equal((await login(next, 'ada@limits.test', 'wrong-password')).status, 401, `failure ${i + 1}`)
        assert.equal(
          (await login(next, 'ada@limits.test', PASSWORD)).status,
          200,
          'the tenth attempt, counted on the other instance too',
        )
        // The count started again on both: ten more failures are checked, alternately.
        const failures = []
        for (let i = 0; i < 10; i++) failures.push(await login(next, 'ada@limits.test', 'wrong-password'))
        assert.deepEqual(countStatuses(failures), { 401: 10 })
        for (const node of pair.nodes) {
          const refused = await login(node, 'ada@limits.test', PASSWORD)
          const retryAfter = Number(refused.headers.get('retry-after'))
          assert.ok(retryAfter >= 1 && retryAfter <= 900, `Retry-After ${retryAfter}`)
          await expectSpec('login', refused.clone(), 429)
          assert.match(
            (await expectProblem(refused, 429, 'too-many-requests')).detail,
            /Too many failed logins for this email/,
          )
        }
        // Parallel guesses on both instances: the store counts atomically.
        const parallel = await Promise.all(
          Array.from({ length: 30 }, (_, i) => login(pair.nodes[i % 2]!, 'grace@limits.test', 'wrong-password')),
        )
        assert.deepEqual(countStatuses(parallel), { 401: 10, 429: 20 })
      } finally {
        await pair.stop()
      }
    })

    test('the per-address limit is shared too; 0 switches it off', async () => {
      const pair = await shared({ loginAttemptsPerAddress: 3 })
      try {
        const next = alternate(pair.nodes)
        const answers = []
        for (let i = 0; i < 4; i++) answers.push(await login(next, `user${i}@limits.test`, 'wrong-password'))
        assert.deepEqual(
          answers.map((r) => r.status),
          [401, 401, 401, 429],
        )
        assert.match((await expectProblem(answers[3]!, 429, 'too-many-requests')).detail, /from this address/)
      } finally {
        await pair.stop()
      }
      const unlimited = await shared({ loginAttemptsPerAddress: 0 })
      try {
        const next = alternate(unlimited.nodes)
        const answers = await Promise.all(
          Array.from({ length: 24 }, (_, i) => login(next, `spray${i}@limits.test`, 'wrong-password')),
        )
        assert.deepEqual(countStatuses(answers), { 401: 24 })
      } finally {
        await unlimited.stop()
      }
    })
  })
}

test('Redis down: a login answers 503 with Retry-After, not a password check it could not count', async () => {
  const redis = await startRedis()
  const one = await instances(1, { databaseUrl: await pg.createDatabase(), redisUrl: redis.url })
  try {
    const f = one.nodes[0]!
    await signup(f, 'ada@limits.test')
    assert.equal((await login(f, 'ada@limits.test', PASSWORD)).status, 200)
    await redis.stop()
    for (const password of [PASSWORD, 'wrong-password']) {
      const res = await login(f, 'ada@limits.test', password)
      assert.equal(res.headers.get('retry-after'), '5')
      assert.match(
        (await expectProblem(res, 503, 'unavailable')).detail,
        /^The store of login attempts cannot be reached; retry shortly \(req/,
      )
    }
  } finally {
    await one.stop()
    await redis.stop()
  }
})

test(
  'PostgreSQL down: a login answers 503 with Retry-After; back up: logins work without a restart',
  { timeout: 60_000 },
  async () => {
    const own = await startOwnPostgres()
    const one = await instances(1, { databaseUrl: await own.createDatabase() })
    try {
      const f = one.nodes[0]!
      await signup(f, 'ada@limits.test')
      await own.halt()
      const res = await login(f, 'ada@limits.test', PASSWORD)
      assert.equal(res.headers.get('retry-after'), '5')
      await expectProblem(res, 503, 'unavailable')
      await own.resume()
      // The pools reconnect on the next request; until then only the documented 503 may answer.
      await servedAgain(() => login(f, 'ada@limits.test', PASSWORD))
    } finally {
      await one.stop()
      await own.stop()
    }
  },
)
