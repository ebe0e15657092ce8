/**
 * Text no backend can store: PostgreSQL refuses U+0000 in text, and a lone surrogate is not
 * Unicode. Wherever a client can send it (JSON members, multipart fields, query and path
 * parameters, anonymously or not) the answer is a 400 problem naming the field, on SQLite and
 * on PostgreSQL alike, and nothing is recorded.
 */
import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import {
  SIGNUP_KEY,
  bearer,
  expectProblem,
  jsonBody,
  memoryApp,
  prepareUploadTeam,
  uploadForm,
  type Fetch,
} from './helpers.ts'

let f: Fetch
let token: string
let versionId: string
before(async () => {
  f = (await memoryApp()).fetch
  token = await prepareUploadTeam(f, 'nul-app')
  const form = uploadForm(
    { version: '1.0.0', channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' },
    [['Nul-1.0.0.exe', 'bytes']],
  )
  const res = await f('/v1/apps/nul-app/versions', bearer(token, { method: 'POST', body: form }))
  assert.equal(res.status, 201, await res.clone().text())
  versionId = ((await res.json()) as { id: string }).id
})

const patch = (body: unknown, auth: string): RequestInit => ({ ...jsonBody(body, auth), method: 'PATCH' })

test('U+0000 in JSON members is a 400 naming the member, signed in or not', async () => {
  const signupKey = { 'x-ferry-signup-key': SIGNUP_KEY }
  await expectProblem(
    await f(
      '/v1/auth/signup',
      jsonBody(
        { teamName: 'Nul\u0000Team', name: 'A', email: 'nul@team.test', password: 'correct-horse-battery-staple' },
        undefined,
        signupKey,
      ),
    ),
    400,
    'validation',
    '/teamName',
  )
  await expectProblem(
    await f('/v1/apps', jsonBody({ slug: 'other-app', name: 'Other\u0000' }, token)),
    400,
    'validation',
    '/name',
  )
  await expectProblem(
    await f('/v1/apps/nul-app', patch({ description: 'a\u0000b' }, token)),
    400,
    'validation',
    '/description',
  )
  await expectProblem(
    await f(`/v1/apps/nul-app/versions/${versionId}/pause`, jsonBody({ reason: 'crash\u0000' }, token)),
    400,
    'validation',
    '/reason',
  )
  const report = {
    deviceId: 'device-nul-0001',
    version: '1.0.0',
    channel: 'sta\u0000ble',
    platform: 'windows',
    arch: 'x64',
    outcome: 'installed',
  }
  await expectProblem(await f('/v1/apps/nul-app/health-reports', jsonBody(report)), 400, 'validation', '/channel')

  const apps = (await (await f('/v1/apps', bearer(token))).json()) as {
    items: Array<{ slug: string; description?: string | null }>
  }
  assert.deepEqual(
    apps.items.map((a) => a.slug),
    ['nul-app'],
    'no app was created',
  )
  const version = (await (await f('/v1/apps/nul-app/versions', bearer(token))).json()) as {
    items: Array<{ id: string; paused?: unknown }>
  }
  assert.deepEqual(
    version.items.map((v) => v.id),
    [versionId],
  )
})

test('a lone surrogate in a JSON member is a 400 naming it (it is not Unicode text)', async () => {
  await expectProblem(
    await f('/v1/apps', jsonBody({ slug: 'other-app', name: 'Half \ud800 a pair' }, token)),
    400,
    'validation',
    '/name',
  )
  await expectProblem(
    await f('/v1/apps/nul-app', patch({ description: '\udc00' }, token)),
    400,
    'validation',
    '/description',
  )
})

test('U+0000 in a multipart upload field is a 400 naming the field, and no version is recorded', async () => {
  const form = uploadForm(
    { version: '2.0.0', channel: 'stable', platform: 'windows', arch: 'x64', changelog: 'Fixes\u0000' },
    [['Nul-2.0.0.exe', 'bytes']],
  )
  await expectProblem(
    await f('/v1/apps/nul-app/versions', bearer(token, { method: 'POST', body: form })),
    400,
    'validation',
    'changelog',
  )
  const versions = (await (await f('/v1/apps/nul-app/versions', bearer(token))).json()) as {
    items: Array<{ version: string }>
  }
  assert.deepEqual(
    versions.items.map((v) => v.version),
    ['1.0.0'],
  )
})

test('U+0000 in query and path parameters is a 400 naming the parameter, anonymous update feeds included', async () => {
  await expectProblem(await f('/v1/versions?channel=st%00able', bearer(token)), 400, 'validation', 'channel')
  await expectProblem(await f('/v1/apps/nul-app/versions?platform=%00', bearer(token)), 400, 'validation', 'platform')
  await expectProblem(
    await f('/v1/apps/nul-app/update?version=1.0.0&platform=windows&arch=x64&channel=%00'),
    400,
    'validation',
    'channel',
  )
  await expectProblem(
    await f('/v1/apps/nul-app/sparkle/st%00able/darwin/x64/appcast.xml'),
    400,
    'validation',
    'channel',
  )
  await expectProblem(
    await f('/v1/apps/nul-app/update?version=1.0.0&platform=win%00dows&arch=x64'),
    400,
    'validation',
    'platform',
  )
})
