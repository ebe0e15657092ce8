/**
 * The version listings answer each filter, page size and cursor for itself, whatever was asked
 * before: their SQL is compiled once per shape of the request (server/storage/prepared.ts), so a
 * statement kept for one shape must never answer another.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { bearer, jsonBody, uploadExe, withUploadTeam } from './helpers.ts'

interface Listed {
  items: Array<{
    version: string
    channel: string
    published: boolean
    critical: boolean
    artifacts: Array<{ fileName: string }>
  }>
  nextCursor: string | null
}

const APP = 'shapes'

const team = withUploadTeam(APP, undefined, {}, async ({ f, token }) => {
  assert.equal((await f('/v1/channels', jsonBody({ name: 'beta' }, token))).status, 201)
  await uploadExe(f, token, APP, '1.0.0')
  await uploadExe(f, token, APP, '1.1.0', { critical: 'true' })
  await uploadExe(f, token, APP, '1.2.0-beta.1', { channel: 'beta' })
  await uploadExe(f, token, APP, '1.2.0', { published: 'false' })
  await uploadExe(f, token, APP, '1.3.0', { critical: 'true', published: 'false' })
})

async function list(path: string): Promise<Listed> {
  const res = await team.f(path, bearer(team.token))
  assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`)
  return (await res.json()) as Listed
}

/** Each filter with the versions it keeps, newest first by semver (the app listing's order). */
const FILTERS: Array<[string, (v: Listed['items'][number]) => boolean]> = [
  ['', () => true],
  ['channel=beta', (v) => v.channel === 'beta'],
  ['channel=stable', (v) => v.channel === 'stable'],
  ['published=false', (v) => !v.published],
  ['published=true', (v) => v.published],
  ['critical=true', (v) => v.critical],
  ['channel=stable&published=false&critical=true', (v) => v.channel === 'stable' && !v.published && v.critical],
  ['channel=nope', () => false],
]

test('each filter lists its own versions with their own files, asked in any order after the others', async () => {
  const all = (await list(`/v1/apps/${APP}/versions?limit=100`)).items
  assert.deepEqual(
    all.map((v) => v.version),
    ['1.3.0', '1.2.0', '1.2.0-beta.1', '1.1.0', '1.0.0'],
  )
  for (const order of [FILTERS, [...FILTERS].reverse()]) {
    for (const [query, keep] of order) {
      const expected = all.filter(keep).map((v) => v.version)
      const byApp = await list(`/v1/apps/${APP}/versions?${query}`)
      assert.deepEqual(
        byApp.items.map((v) => v.version),
        expected,
        `app listing ?${query}`,
      )
      for (const v of byApp.items)
        assert.deepEqual(
          v.artifacts.map((a) => a.fileName),
          [`${APP}-${v.version}.exe`],
        )
      // The team listing (no `critical` filter): newest upload first, the app as one more filter.
      if (query.includes('critical')) continue
      const byTeam = await list(`/v1/versions?app=${APP}&${query}`)
      assert.deepEqual(byTeam.items.map((v) => v.version).sort(), [...expected].sort(), `team listing ?${query}`)
      for (const v of byTeam.items)
        assert.deepEqual(
          v.artifacts.map((a) => a.fileName),
          [`${APP}-${v.version}.exe`],
        )
    }
  }
})

test('pages of every size, then their cursors, walk the same versions in the same order', async () => {
  const all = (await list(`/v1/apps/${APP}/versions?limit=100`)).items.map((v) => v.version)
  for (const base of [`/v1/apps/${APP}/versions`, `/v1/versions?app=${APP}`]) {
    const full = (await list(`${base}${base.includes('?') ? '&' : '?'}limit=100`)).items.map((v) => v.version)
    assert.deepEqual([...full].sort(), [...all].sort())
    for (const size of [1, 2, 3, 4, 5]) {
      const walked: string[][] = []
      let cursor: string | null = null
      do {
        const page: Listed = await list(
          `${base}${base.includes('?') ? '&' : '?'}limit=${size}${cursor ? `&cursor=${cursor}` : ''}`,
        )
        walked.push(page.items.map((v) => v.version))
        cursor = page.nextCursor
      } while (cursor)
      // Every page full but the last, which is not empty: no short page, no empty page at the end.
      const pages = Array.from({ length: Math.ceil(full.length / size) }, (_, i) =>
        full.slice(i * size, (i + 1) * size),
      )
      assert.deepEqual(walked, pages, `${base}, pages of ${size}`)
    }
  }
})
