/** What a quickstart's first step creates: a team, its catalogs, the app and a release token for that app. */
import assert from 'node:assert/strict'
import { jsonBody, signup, type Fetch } from '../server/helpers.ts'

export async function quickstartTeam(
  f: Fetch,
  options: {
    email: string
    teamName: string
    app: { slug: string; name: string }
    updater: string
    platforms: string[]
    archs: string[]
    tokenName: string
  },
): Promise<string> {
  const admin = (await signup(f, options.email, options.teamName)).token
  const requests: Array<[string, object]> = [
    ['/v1/channels', { name: 'stable' }],
    ...options.platforms.map((name): [string, object] => ['/v1/platforms', { name, updater: options.updater }]),
    ...options.archs.map((name): [string, object] => ['/v1/archs', { name }]),
    ['/v1/apps', options.app],
  ]
  for (const [path, body] of requests) {
    const res = await f(path, jsonBody(body, admin))
    assert.equal(res.status, 201, await res.text())
  }
  const allowed = [options.app.slug]
  const created = await f(
    '/v1/team/tokens',
    jsonBody(
      {
        name: options.tokenName,
        permissions: {
          apps: {
            upload: { enabled: true, allowed },
            edit: { enabled: true, allowed },
          },
        },
      },
      admin,
    ),
  )
  assert.equal(created.status, 201, await created.clone().text())
  const { token }: { token: string } = await created.json()
  return token
}
