/**
 * Versions the contract's Semver pattern admits but the `semver` library refuses: refused with a
 * 400 naming the field, at upload and on every update endpoint, so one of them can never reach a
 * comparison (which would throw and turn every update answer of the app into a 500).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import semver from 'semver'
import { bearer, expectProblem, memoryApp, prepareUploadTeam, uploadForm } from './helpers.ts'

const SEMVER_PATTERN = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/

/** Each matches the spec's pattern; `semver` refuses every one. */
const PATTERN_VALID_SEMVER_INVALID = {
  'a major number above 2^53 - 1': '9007199254740993.0.0',
  'a patch number above 2^53 - 1': '1.0.99999999999999999999',
  'a numeric pre-release identifier with a leading zero': '1.0.0-01',
  'an empty pre-release identifier': '1.0.0-alpha..1',
  'a pre-release ending in a dot': '1.0.0-rc.',
  'an empty build identifier': '1.0.0+build..2',
  'more than 256 characters': `1.0.0-${'a'.repeat(260)}`,
}

test('the cases really are pattern-valid and semver-invalid', () => {
  for (const [why, version] of Object.entries(PATTERN_VALID_SEMVER_INVALID)) {
    assert.ok(SEMVER_PATTERN.test(version), `${why}: matches the spec's pattern`)
    assert.equal(semver.valid(version), null, `${why}: semver refuses it`)
  }
})

async function setup() {
  const m = await memoryApp()
  const token = await prepareUploadTeam(m.fetch, 'odd-app')
  const upload = (version: string, file: string) =>
    m.fetch(
      '/v1/apps/odd-app/versions',
      bearer(token, {
        method: 'POST',
        body: uploadForm({ version, channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }, [
          [file, 'bytes'],
        ]),
      }),
    )
  return { ...m, token, upload }
}

test('upload refuses a version semver cannot compare, names the field, stores nothing; update answers keep working', async () => {
  const m = await setup()
  assert.equal((await m.upload('1.0.0', 'odd-1.0.0-full.nupkg')).status, 201)
  for (const [why, version] of Object.entries(PATTERN_VALID_SEMVER_INVALID)) {
    const problem = await expectProblem(await m.upload(version, 'odd-9.0.0-full.nupkg'), 400, 'validation', 'version')
    assert.ok(
      problem.errors?.every((e) => e.field === 'version'),
      `${why}: only the version is named`,
    )
  }
  assert.equal((await m.blobs.list()).length, 1, 'only the accepted upload left a blob')
  const listed = (await (await m.fetch('/v1/apps/odd-app/versions', bearer(m.token))).json()) as {
    items: Array<{ version: string }>
  }
  assert.deepEqual(
    listed.items.map((v) => v.version),
    ['1.0.0'],
  )
  assert.equal((await m.fetch('/v1/apps/odd-app/update?version=0.9.0&platform=windows&arch=x64')).status, 200)
  assert.equal((await m.fetch('/v1/apps/odd-app/latest?packageType=nupkg&platform=windows&arch=x64')).status, 302)
  assert.equal((await m.fetch('/v1/apps/odd-app/squirrel/stable/x64/RELEASES')).status, 200)
})

test('every update endpoint (and the telemetry filter) refuses such a version with a 400 naming its parameter', async () => {
  const m = await setup()
  assert.equal((await m.upload('1.0.0', 'odd-1.0.0-full.nupkg')).status, 201)
  for (const [why, version] of Object.entries(PATTERN_VALID_SEMVER_INVALID)) {
    const v = encodeURIComponent(version)
    const endpoints: Array<[string, string]> = [
      [`/v1/apps/odd-app/update?version=${v}&platform=windows&arch=x64`, 'version'],
      [`/v1/apps/odd-app/update?version=${v}&platform=windows&arch=x64&format=electron-updater`, 'version'],
      [`/v1/apps/odd-app/squirrel-mac/stable/x64?version=${v}`, 'version'],
      [`/v1/apps/odd-app/squirrel/stable/x64/RELEASES?localVersion=${v}`, 'localVersion'],
      [`/v1/apps/odd-app/electron-updater/stable/windows/x64/${v}/latest.yml`, 'version'],
      [`/v1/apps/odd-app/tauri/stable/windows/x86_64/${v}`, 'currentVersion'],
      [`/v1/telemetry?from=2025-01-01&to=2025-01-31&version=${v}`, 'version'],
    ]
    for (const [path, field] of endpoints) {
      const problem = await expectProblem(await m.fetch(path, bearer(m.token)), 400, 'validation', field)
      assert.match(
        problem.errors?.find((e) => e.field === field)?.message ?? '',
        /semantic version|2\^53|leading zero|empty|256/,
        `${why}: ${path}`,
      )
    }
  }
})

test('odd but valid versions are answered, not refused: build metadata, long pre-releases, big pre-release numbers', async () => {
  const m = await setup()
  assert.equal((await m.upload('1.0.0', 'odd-1.0.0-full.nupkg')).status, 201)
  for (const version of [
    '0.9.0+build.7',
    '0.9.0-rc.1+sha.5114f85',
    '0.9.0-9999999999999999999',
    '0.9.0--',
    '0.9.0-0a',
    `0.9.0-${'a'.repeat(240)}`,
    '9007199254740991.0.0',
  ]) {
    const res = await m.fetch(
      `/v1/apps/odd-app/update?version=${encodeURIComponent(version)}&platform=windows&arch=x64`,
    )
    assert.ok(res.status === 200 || res.status === 204, `${version}: ${res.status} ${await res.text()}`)
  }
  for (const version of ['v1.0.0', ' 1.0.0', '1.0.0 ', '=1.0.0', '١.٠.٠', '1.0', '1.0.0\n']) {
    await expectProblem(
      await m.fetch(`/v1/apps/odd-app/update?version=${encodeURIComponent(version)}&platform=windows&arch=x64`),
      400,
      'validation',
      'version',
    )
  }
})

test('a stored version semver refuses (written before this check) is skipped, not a 500 for every client', async () => {
  const m = await setup()
  assert.equal((await m.upload('1.0.0', 'odd-1.0.0-full.nupkg')).status, 201)
  assert.equal((await m.upload('1.1.0', 'odd-1.1.0-full.nupkg')).status, 201)
  // As migration 0005 leaves such a row: no sort key.
  await m.db
    .updateTable('versions')
    .set({ version: '99999999999999999.0.0', version_key: null })
    .where('version', '=', '1.1.0')
    .execute()
  const res = await m.fetch('/v1/apps/odd-app/update?version=0.9.0&platform=windows&arch=x64')
  assert.equal(res.status, 200, await res.clone().text())
  assert.equal(((await res.json()) as { version: string }).version, '1.0.0')
  assert.equal((await m.fetch('/v1/apps/odd-app/squirrel/stable/x64/RELEASES')).status, 200)
  const latest = await m.fetch('/v1/apps/odd-app/latest?packageType=nupkg&platform=windows&arch=x64')
  assert.equal(latest.status, 302, 'the newest build is the newest comparable one')
  assert.match(latest.headers.get('location') ?? '', new RegExp(`/versions/${await idOf(m, '1.0.0')}/`))
  const listed = await m.fetch('/v1/apps/odd-app/versions?limit=1', bearer(m.token))
  assert.equal(listed.status, 200, await listed.clone().text())
  const first = (await listed.json()) as { items: Array<{ version: string }>; nextCursor: string }
  const rest = (await (
    await m.fetch(`/v1/apps/odd-app/versions?limit=1&cursor=${first.nextCursor}`, bearer(m.token))
  ).json()) as { items: Array<{ version: string }>; nextCursor: string | null }
  assert.deepEqual(
    [...first.items, ...rest.items].map((v) => v.version),
    ['1.0.0', '99999999999999999.0.0'],
    'listed, after the comparable ones',
  )
  assert.equal(rest.nextCursor, null)
})

async function idOf(m: { db: Awaited<ReturnType<typeof setup>>['db'] }, version: string): Promise<string> {
  return (await m.db.selectFrom('versions').select('id').where('version', '=', version).executeTakeFirstOrThrow()).id
}
