/**
 * Misses of the answer cache (`server/cache/answer-flights.ts`): concurrent update checks of one
 * answer nobody cached reach the database once; after a publish, the checks that follow see the
 * new version and compute it once between them (the write computes its app's hot answers again);
 * and a check that starts after a write never shares a computation started before it. Queries
 * are counted by a Kysely plugin on the app's real database (SQLite, or PostgreSQL in the matrix).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { KyselyPlugin } from 'kysely'
import { createMemoryCache, type AnswerCache } from '../../server/cache/answer-cache.ts'
import { openTestDb, prepareUploadTeam, uploadExe, type Fetch, memoryApp } from './helpers.ts'

const CHECKERS = 20

/** A Ferry app whose SELECTs are counted; `answerCache` replaces its in-process cache. */
async function countedApp(answerCache: AnswerCache = createMemoryCache()) {
  let selects = 0
  const counter: KyselyPlugin = {
    transformQuery(args) {
      if (args.node.kind === 'SelectQueryNode') selects++
      return args.node
    },
    transformResult: async (args) => args.result,
  }
  const db = (await openTestDb()).withPlugin(counter)
  const { fetch: f } = await memoryApp({}, undefined, { db, answerCache })
  /** The SELECTs `run` made (and anything else the app did meanwhile). */
  const selectsDuring = async <T>(run: () => Promise<T>): Promise<{ selects: number; result: T }> => {
    const before = selects
    const result = await run()
    return { selects: selects - before, result }
  }
  return { f, selectsDuring }
}

const checkPath = (app: string, version: string) =>
  `/v1/apps/${app}/update?version=${version}&channel=stable&platform=windows&arch=x64&format=ferry`

/** The version each of `count` concurrent checks from `version` is offered. */
async function offeredTo(f: Fetch, app: string, version: string, count: number): Promise<string[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const res = await f(checkPath(app, version))
      assert.equal(res.status, 200, await res.clone().text())
      return ((await res.json()) as { version: string }).version
    }),
  )
}

test('concurrent checks of an answer nobody cached reach the database once', async () => {
  const { f, selectsDuring } = await countedApp()
  const token = await prepareUploadTeam(f, 'flights')
  await uploadExe(f, token, 'flights', '1.0.0')
  await uploadExe(f, token, 'flights', '1.1.0')
  const one = await selectsDuring(() => offeredTo(f, 'flights', '0.9.0', 1))
  assert.deepEqual(one.result, ['1.1.0'])
  assert.ok(one.selects > 0, 'a miss reads the database')
  const many = await selectsDuring(() => offeredTo(f, 'flights', '0.9.1', CHECKERS))
  assert.deepEqual(many.result, Array(CHECKERS).fill('1.1.0'))
  assert.ok(
    many.selects <= one.selects,
    `${CHECKERS} concurrent misses made ${many.selects} SELECTs; one miss makes ${one.selects}`,
  )
})

test(
  'a publish computes the answers last asked for again: the checks that follow are hits with the new version',
  { timeout: 60_000 },
  async () => {
    const inner = createMemoryCache()
    /** Resolves once `count` more answers of `app` were stored. */
    let stored: { app: string; left: number; done: () => void } | undefined
    const storedAnswers = (app: string, count: number) =>
      new Promise<void>((done) => (stored = { app, left: count, done }))
    const cache: AnswerCache = {
      ...inner,
      async set(app, ...rest) {
        await inner.set(app, ...rest)
        if (stored?.app === app && --stored.left === 0) stored.done()
      },
    }
    const { f, selectsDuring } = await countedApp(cache)
    const token = await prepareUploadTeam(f, 'republish')
    await uploadExe(f, token, 'republish', '1.0.0')
    await uploadExe(f, token, 'republish', '1.1.0')
    assert.deepEqual(await offeredTo(f, 'republish', '0.9.0', 1), ['1.1.0'])
    assert.deepEqual(await offeredTo(f, 'republish', '1.0.0', 2), ['1.1.0', '1.1.0'])
    for (const version of ['1.2.0', '1.3.0']) {
      // Both answers asked for, computed again by the write itself, with nobody checking.
      const recomputed = storedAnswers('republish', 2)
      await uploadExe(f, token, 'republish', version)
      await recomputed
      for (const from of ['1.0.0', '0.9.0']) {
        const after = await selectsDuring(() => offeredTo(f, 'republish', from, CHECKERS))
        assert.deepEqual(after.result, Array(CHECKERS).fill(version), 'no check after the publish gets an older answer')
        assert.equal(
          after.selects,
          0,
          `${CHECKERS} checks from ${from} after publishing ${version}: answered from the cache`,
        )
      }
    }
  },
)

test('a check that starts after a write does not share a computation started before it', async () => {
  const inner = createMemoryCache()
  /** Holds the first answer stored after `hold()` until `release()`; `held` resolves when it arrives. */
  let holding = false
  let arrived: () => void = () => undefined
  const held = new Promise<void>((done) => (arrived = done))
  let release: () => void = () => undefined
  const released = new Promise<void>((done) => (release = done))
  const cache: AnswerCache = {
    ...inner,
    async set(...args) {
      if (holding) {
        holding = false
        arrived()
        await released
      }
      return inner.set(...args)
    },
  }
  const { f } = await countedApp(cache)
  const token = await prepareUploadTeam(f, 'straddle')
  await uploadExe(f, token, 'straddle', '1.0.0')
  await uploadExe(f, token, 'straddle', '1.1.0')
  holding = true
  const before = offeredTo(f, 'straddle', '1.0.0', 3)
  await held
  await uploadExe(f, token, 'straddle', '1.2.0')
  const after = offeredTo(f, 'straddle', '1.0.0', 3)
  release()
  assert.deepEqual(await after, ['1.2.0', '1.2.0', '1.2.0'], 'checks started after the publish see it')
  assert.deepEqual(await before, ['1.1.0', '1.1.0', '1.1.0'], 'checks started before it were decided before it')
  assert.deepEqual(await offeredTo(f, 'straddle', '1.0.0', 1), ['1.2.0'], 'the older answer was not cached')
})
