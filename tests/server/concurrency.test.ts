/**
 * Conflicting writes fired in parallel: no update is lost, counters count every change, and
 * multi-step writes never leave a state no single request could have produced.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  PASSWORD,
  bearer,
  halfThenWait,
  jsonBody,
  memoryApp,
  prepareUploadTeam,
  signup,
  uploadForm,
  type Fetch,
} from './helpers.ts'

const patch = (body: unknown, token: string): RequestInit => ({ ...jsonBody(body, token), method: 'PATCH' })
const ROUNDS = 15

async function login(f: Fetch, email: string, password: string): Promise<number> {
  return (await f('/v1/auth/login', jsonBody({ email, password }))).status
}

test('revoking a permission and changing the password at once: both land, every time', async () => {
  const { fetch: f } = await memoryApp()
  const { token } = await signup(f, 'admin@race.test')
  await f('/v1/apps', jsonBody({ slug: 'race-app', name: 'Race' }, token))
  for (let round = 0; round < ROUNDS; round++) {
    const email = `user${round}@race.test`
    const created = await f(
      '/v1/team/users',
      jsonBody(
        {
          email,
          name: 'U',
          password: PASSWORD,
          permissions: { apps: { edit: { enabled: true } } },
        },
        token,
      ),
    )
    const { id } = (await created.json()) as { id: string }
    const newPassword = `new-password-${round}-long-enough`
    // Both orders: the password change (which hashes first) sent before and after the revocation.
    const requests = [
      () => f(`/v1/team/users/${id}`, patch({ password: newPassword }, token)),
      () => f(`/v1/team/users/${id}`, patch({ permissions: { apps: { edit: { enabled: false } } } }, token)),
    ]
    const [changed, revoked] =
      round % 2 === 0
        ? await Promise.all([requests[0]!(), requests[1]!()])
        : await Promise.all([requests[1]!(), requests[0]!()]).then(([r, c]) => [c, r])
    assert.equal(revoked?.status, 200)
    assert.equal(changed?.status, 200)
    const list = (await (await f('/v1/team/users?limit=100', bearer(token))).json()) as {
      items: Array<{ id: string; permissions: { apps: { edit: { enabled: boolean } } } }>
    }
    const user = list.items.find((u) => u.id === id)
    assert.equal(
      user?.permissions.apps.edit.enabled,
      false,
      `round ${round}: the password change put back a revoked permission`,
    )
    assert.equal(await login(f, email, newPassword), 200, `round ${round}: the new password does not work`)
  }
})

test('every concurrent password change revokes the tokens issued before it (the counter counts in SQL)', async () => {
  const { fetch: f, db } = await memoryApp()
  const { token } = await signup(f, 'admin@counter.test')
  const created = await f('/v1/team/users', jsonBody({ email: 'u@counter.test', name: 'U', password: PASSWORD }, token))
  const { id } = (await created.json()) as { id: string }
  const changes = 10
  const results = await Promise.all(
    Array.from({ length: changes }, (_, i) =>
      f(`/v1/team/users/${id}`, patch({ password: `changed-password-${i}-long` }, token)),
    ),
  )
  assert.deepEqual(
    results.map((r) => r.status),
    Array(changes).fill(200),
  )
  // A lost increment would let a token issued between two changes survive the later one.
  const row = await db.selectFrom('users').select('token_version').where('id', '=', id).executeTakeFirstOrThrow()
  assert.equal(row.token_version, changes)
})

test('editing different fields of an app at once keeps both edits', async () => {
  const { fetch: f } = await memoryApp()
  const { token } = await signup(f, 'admin@apps.test')
  for (let round = 0; round < ROUNDS; round++) {
    const slug = `app-${round}`
    await f('/v1/apps', jsonBody({ slug, name: 'Before', private: false }, token))
    const results = await Promise.all([
      f(`/v1/apps/${slug}`, patch({ name: 'After' }, token)),
      f(`/v1/apps/${slug}`, patch({ private: true }, token)),
      f(`/v1/apps/${slug}`, patch({ description: 'Described' }, token)),
    ])
    assert.deepEqual(
      results.map((r) => r.status),
      [200, 200, 200],
    )
    const list = (await (await f('/v1/apps?limit=100', bearer(token))).json()) as {
      items: Array<{ slug: string; name: string; private: boolean; description: string }>
    }
    const app = list.items.find((a) => a.slug === slug)
    assert.deepEqual(
      { name: app?.name, private: app?.private, description: app?.description },
      { name: 'After', private: true, description: 'Described' },
    )
  }
})

const FIELDS = { version: '1.0.0', channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }

test('deleting the last two files of a version at once leaves one: a version never ends with none', async () => {
  const { fetch: f, db } = await memoryApp()
  const token = await prepareUploadTeam(f, 'files-app')
  for (let round = 0; round < ROUNDS; round++) {
    const res = await f(
      '/v1/apps/files-app/versions',
      bearer(token, {
        method: 'POST',
        body: uploadForm({ ...FIELDS, version: `1.0.${round}` }, [
          ['a.exe', 'a'],
          ['b.zip', 'b'],
        ]),
      }),
    )
    assert.equal(res.status, 201, await res.clone().text())
    const version = (await res.json()) as { id: string; artifacts: Array<{ id: string }> }
    const statuses = await Promise.all(
      version.artifacts.map((a) =>
        f(`/v1/apps/files-app/versions/${version.id}/artifacts/${a.id}`, bearer(token, { method: 'DELETE' })).then(
          (r) => r.status,
        ),
      ),
    )
    assert.deepEqual(statuses.sort(), [204, 409], `round ${round}`)
    const left = await db.selectFrom('artifacts').select('id').where('version_id', '=', version.id).execute()
    assert.equal(left.length, 1)
  }
})

test('deleting a channel while a version is uploaded to it: either wins, never a 500, and the database says which', async () => {
  const { fetch: f, db, blobs } = await memoryApp()
  const token = await prepareUploadTeam(f, 'chan-app')
  let uploadsWon = 0
  for (let round = 0; round < ROUNDS; round++) {
    const channel = (await (await f('/v1/channels', jsonBody({ name: `ch-${round}` }, token))).json()) as { id: string }
    const form = uploadForm({ ...FIELDS, channel: `ch-${round}` }, [['a.exe', 'a'.repeat(200_000)]])
    let removal: Promise<Response>
    let upload: Promise<Response>
    if (round % 2 === 0) {
      // Sent together: the upload, already parsing, usually wins.
      upload = f('/v1/apps/chan-app/versions', bearer(token, { method: 'POST', body: form }))
      removal = f(`/v1/channels/${channel.id}`, bearer(token, { method: 'DELETE' }))
    } else {
      // The deletion lands while the upload's body is half sent, after its file was started.
      let deletionDone: () => void = () => undefined
      const inFlight = await halfThenWait(
        form,
        new Promise<void>((r) => {
          deletionDone = r
        }),
      )
      upload = f('/v1/apps/chan-app/versions', inFlight.init(token))
      await inFlight.halfSent()
      removal = f(`/v1/channels/${channel.id}`, bearer(token, { method: 'DELETE' })).finally(() => deletionDone())
    }
    const [uploaded, removed] = await Promise.all([upload, removal])
    const outcome = `${uploaded.status}/${removed.status}`
    assert.ok(
      ['201/409', '400/204', '409/204'].includes(outcome),
      `round ${round}: ${outcome} ${await uploaded.text()}`,
    )
    if (round % 2 === 1)
      assert.equal(removed.status, 204, `round ${round}: a deletion that lands before the upload is stored wins`)
    const stored = await db.selectFrom('versions').select('id').where('channel_id', '=', channel.id).execute()
    const kept = await db.selectFrom('channels').select('id').where('id', '=', channel.id).execute()
    if (uploaded.status === 201) {
      uploadsWon++
      assert.deepEqual(
        [stored.length, kept.length],
        [1, 1],
        `round ${round}: the upload won, so its version and the channel are stored`,
      )
    } else {
      assert.deepEqual(
        [stored.length, kept.length],
        [0, 0],
        `round ${round}: the deletion won, so neither the channel nor a version of it is left`,
      )
    }
  }
  assert.equal((await blobs.list()).length, uploadsWon, 'an upload that lost left no file behind')
})

test('deleting an app while a version is uploaded to it leaves no version and no file behind', async () => {
  const { fetch: f, db, blobs } = await memoryApp()
  const token = await prepareUploadTeam(f, 'gone-app')
  const [upload, removal] = await Promise.all([
    f(
      '/v1/apps/gone-app/versions',
      bearer(token, { method: 'POST', body: uploadForm(FIELDS, [['a.exe', 'a'.repeat(100_000)]]) }),
    ),
    f('/v1/apps/gone-app', bearer(token, { method: 'DELETE' })),
  ])
  assert.equal(removal.status, 204)
  assert.ok(upload.status < 500, `${upload.status} ${await upload.text()}`)
  assert.equal((await db.selectFrom('versions').select('id').execute()).length, 0)
  assert.deepEqual(await blobs.list(), [])
})
