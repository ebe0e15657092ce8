/**
 * Issue 12's findings as a caller sees them: login limiting (per email and per address, under
 * parallel requests), password hash strength and its upgrade at login, tokens without `exp`,
 * security headers on every kind of response, `no-store` on tokens, and CORS.
 */
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { SignJWT } from 'jose'
import { RateLimiterMemory } from 'rate-limiter-flexible'
import { hashPassword } from '../../server/core/crypto.ts'
import { flexibleLoginLimiter } from '../../server/auth/login-limiter-flexible.ts'
import {
  DEFAULT_LOGIN_LIMITS,
  addressKey,
  createMemoryLoginLimiter,
  type LoginLimiter,
} from '../../server/auth/login-limiter.ts'
import {
  JWT_SECRET,
  PASSWORD,
  bearer,
  countStatuses,
  expectProblem,
  expectSpec,
  httpFetch,
  jsonBody,
  memoryApp,
  prepareUploadTeam,
  signup,
  login,
  openServerDb,
  startTestServer,
  testDatabaseUrl,
  uploadForm,
  type Fetch,
  type TestServer,
} from './helpers.ts'
import { startServerProcess } from './server-process.ts'

/** Tests decide the client's address with a header (the Node runtime reads the socket). */
const clientFromHeader = {
  clientIp: (c: { req: { header(name: string): string | undefined } }) => c.req.header('x-test-client'),
}

describe('login limiting', () => {
  test('defaults: 10 failures per email, 100 attempts per address, 15-minute windows', () => {
    assert.deepEqual(DEFAULT_LOGIN_LIMITS, { failuresPerEmail: 10, attemptsPerAddress: 100, windowSeconds: 900 })
  })

  test('50 parallel wrong passwords: 10 are checked, 40 get 429, and the right password is refused while blocked', async () => {
    const m = await memoryApp()
    await signup(m.fetch, 'ada@team.test')
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => login(m.fetch, 'ada@team.test', 'wrong-password')),
    )
    assert.deepEqual(countStatuses(answers), { 401: 10, 429: 40 })
    const refused = answers.find((r) => r.status === 429)
    assert.ok(refused)
    const retryAfter = Number(refused.headers.get('retry-after'))
    assert.ok(retryAfter >= 1 && retryAfter <= 900, `Retry-After ${retryAfter}`)
    const problem = await expectProblem(refused.clone(), 429, 'too-many-requests')
    assert.match(problem.detail, /Too many failed logins for this email; try again in \d+ seconds\./)
    await expectSpec('login', refused, 429)

    const right = await login(m.fetch, 'ada@team.test', PASSWORD)
    assert.ok(Number(right.headers.get('retry-after')) >= 1)
    await expectProblem(right, 429, 'too-many-requests')
    // Other accounts are not affected.
    await signup(m.fetch, 'grace@team.test', 'Other team')
    assert.equal((await login(m.fetch, 'grace@team.test', PASSWORD)).status, 200)
  })

  test('a password change checks the current password under the same limit: a stolen token cannot guess it', async () => {
    const m = await memoryApp()
    const { token } = await signup(m.fetch, 'ada@team.test')
    const change = (currentPassword: string) =>
      m.fetch('/v1/team/admin', {
        ...jsonBody({ currentPassword, newPassword: 'a-brand-new-password' }, token),
        method: 'PATCH',
      })
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => change(`guess-number-${i}`)))
    assert.deepEqual(countStatuses(answers), { 400: 10, 429: 2 })
    const refused = answers.find((r) => r.status === 429)
    assert.ok(refused && Number(refused.headers.get('retry-after')) >= 1)
    await expectSpec('updateAdminPassword', refused, 429)
    assert.equal((await change(PASSWORD)).status, 429, 'the right password waits for the window too')
    assert.equal(
      (await login(m.fetch, 'ada@team.test', PASSWORD)).status,
      429,
      'logins and password changes share the count',
    )
  })

  test('an unknown email is limited like a known one (no account enumeration)', async () => {
    const m = await memoryApp()
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => login(m.fetch, 'nobody@team.test', 'wrong-password')),
    )
    assert.deepEqual(countStatuses(answers), { 401: 10, 429: 2 })
  })

  test('the block ends with its window; a successful login forgives earlier failures', async () => {
    let now = new Date('2030-01-01T00:00:00Z')
    const m = await memoryApp({}, () => now)
    await signup(m.fetch, 'ada@team.test')
    for (let i = 0; i < 9; i++) assert.equal((await login(m.fetch, 'ada@team.test', 'wrong-password')).status, 401)
    assert.equal((await login(m.fetch, 'ada@team.test', PASSWORD)).status, 200)
    // The count started again: ten more failures are checked before the block.
    for (let i = 0; i < 10; i++) assert.equal((await login(m.fetch, 'ada@team.test', 'wrong-password')).status, 401)
    now = new Date('2030-01-01T00:05:00Z')
    const blocked = await login(m.fetch, 'ada@team.test', PASSWORD)
    assert.equal(blocked.status, 429)
    assert.equal(blocked.headers.get('retry-after'), '600', 'the window opened at 00:00 ends at 00:15')
    now = new Date('2030-01-01T00:15:00Z')
    assert.equal((await login(m.fetch, 'ada@team.test', PASSWORD)).status, 200)
  })

  test('one address trying many emails is refused after its limit, successes included; other addresses are not', async () => {
    const m = await memoryApp({ loginLimits: { attemptsPerAddress: 20 } }, undefined, clientFromHeader)
    await signup(m.fetch, 'ada@team.test')
    const answers = await Promise.all([
      ...Array.from({ length: 15 }, (_, i) => login(m.fetch, `user${i}@team.test`, 'wrong-password', '203.0.113.7')),
      ...Array.from({ length: 5 }, () => login(m.fetch, 'ada@team.test', PASSWORD, '203.0.113.7')),
    ])
    assert.deepEqual(countStatuses(answers), { 401: 15, 200: 5 })
    const refused = await login(m.fetch, 'ada@team.test', PASSWORD, '203.0.113.7')
    const problem = await expectProblem(refused, 429, 'too-many-requests')
    assert.match(problem.detail, /from this address/)
    assert.equal((await login(m.fetch, 'ada@team.test', PASSWORD, '198.51.100.1')).status, 200)
    // An IPv6 client counts by its /64: rotating the interface id does not give new attempts.
    const v6 = await Promise.all(
      Array.from({ length: 21 }, (_, i) =>
        login(m.fetch, `v6-${i}@team.test`, 'wrong-password', `2001:db8:1:2::${(i + 1).toString(16)}`),
      ),
    )
    assert.deepEqual(countStatuses(v6), { 401: 20, 429: 1 })
  })

  test("over HTTP the address is the connection's; FERRY_LOGIN_ATTEMPTS_PER_ADDRESS sets its limit, 0 switches it off", async () => {
    const server = await startTestServer(undefined, { loginAttemptsPerAddress: 3 })
    try {
      const f = httpFetch(server.url)
      const answers = await Promise.all(
        Array.from({ length: 4 }, (_, i) => login(f, `user${i}@team.test`, 'wrong-password')),
      )
      assert.deepEqual(countStatuses(answers), { 401: 3, 429: 1 })
      const refused = answers.find((r) => r.status === 429)
      assert.ok(refused)
      assert.match((await expectProblem(refused, 429, 'too-many-requests')).detail, /from this address/)
    } finally {
      await server.stop()
    }
    const m = await memoryApp({ loginLimits: { attemptsPerAddress: 0 } }, undefined, clientFromHeader)
    const sprayed = await Promise.all(
      Array.from({ length: 150 }, (_, i) => login(m.fetch, `user${i}@team.test`, 'wrong-password', '203.0.113.7')),
    )
    assert.deepEqual(countStatuses(sprayed), { 401: 150 })
  })

  test("behind FERRY_TRUSTED_PROXIES the address is X-Forwarded-For's client; from any other peer the header is ignored", async () => {
    const forwarded = (f: Fetch, i: number, chain: string) =>
      f(
        '/v1/auth/login',
        jsonBody({ email: `user${i}@team.test`, password: 'wrong-password' }, undefined, { 'x-forwarded-for': chain }),
      )
    const behind = await startTestServer(undefined, {
      loginAttemptsPerAddress: 3,
      trustedProxies: ['127.0.0.0/8', '10.0.0.0/8'],
    })
    const direct = await startTestServer(undefined, { loginAttemptsPerAddress: 3 })
    try {
      const f = httpFetch(behind.url)
      // Two proxies (10.1.2.3 in front of the loopback one); the client wrote its own first entry.
      const first = await Promise.all(
        Array.from({ length: 4 }, (_, i) => forwarded(f, i, `198.51.100.${i}, 203.0.113.5, 10.1.2.3`)),
      )
      assert.deepEqual(
        countStatuses(first),
        { 401: 3, 429: 1 },
        'the client left of the trusted hops is counted, whatever it claims further left',
      )
      const other = await forwarded(f, 9, '203.0.113.6')
      assert.equal(other.status, 401, 'another client behind the same proxy has its own count')
      const spoofing = await Promise.all(
        Array.from({ length: 4 }, (_, i) => forwarded(httpFetch(direct.url), i, `203.0.113.${100 + i}`)),
      )
      assert.deepEqual(countStatuses(spoofing), { 401: 3, 429: 1 }, 'an untrusted peer cannot pick its address')
    } finally {
      await Promise.all([behind.stop(), direct.stop()])
    }
  })

  test('address keys: IPv4 as is, IPv4-mapped IPv6 as IPv4, IPv6 by /64', () => {
    assert.equal(addressKey('203.0.113.7'), '203.0.113.7')
    assert.equal(addressKey('::ffff:203.0.113.7'), '203.0.113.7')
    assert.equal(addressKey('2001:db8:1:2::1'), '2001:db8:1:2::/64')
    assert.equal(addressKey('2001:DB8:1:2:aaaa:bbbb:cccc:dddd'), '2001:db8:1:2::/64')
    assert.equal(addressKey('2001:db8::1'), '2001:db8:0:0::/64')
    assert.equal(addressKey('::1'), '0:0:0:0::/64')
    assert.equal(addressKey('fe80::1%eth0'), 'fe80:0:0:0::/64')
  })

  test('memory stays bounded however many emails and addresses are tried, and other keys never reset a block', async () => {
    const limiter = createMemoryLoginLimiter({}, () => 0, 1000)
    const victim = { email: 'ada@team.test', address: undefined }
    for (let i = 0; i < 10; i++) assert.equal((await limiter.take(victim)).allowed, true)
    assert.equal((await limiter.take(victim)).allowed, false)
    for (let i = 0; i < 900; i++)
      await limiter.take({ email: `spray${i}@team.test`, address: `10.0.${i >> 8}.${i & 255}` })
    assert.equal((await limiter.take(victim)).allowed, false, 'still blocked after 900 other emails')
    for (let i = 0; i < 100_000; i++)
      await limiter.take({ email: `flood${i}@team.test`, address: `10.1.${(i >> 8) & 255}.${i & 255}` })
    assert.ok(limiter.trackedKeys <= 2000, `${limiter.trackedKeys} keys tracked`)
  })

  test('the rate-limiter-flexible adapter keeps the same contract (for Redis/PostgreSQL stores)', async () => {
    const limiter: LoginLimiter = flexibleLoginLimiter(
      {
        byEmail: new RateLimiterMemory({ points: 10, duration: 900 }),
        byAddress: new RateLimiterMemory({ points: 100, duration: 900 }),
      },
      JWT_SECRET,
    )
    const attempt = { email: 'ada@team.test', address: '203.0.113.7' }
    const verdicts = await Promise.all(Array.from({ length: 50 }, () => limiter.take(attempt)))
    assert.equal(verdicts.filter((v) => v.allowed).length, 10)
    const refused = verdicts.find((v) => !v.allowed)
    assert.ok(
      refused &&
        !refused.allowed &&
        refused.limit === 'email' &&
        refused.retryAfterSeconds > 0 &&
        refused.retryAfterSeconds <= 900,
    )
    await limiter.succeeded(attempt)
    assert.equal((await limiter.take(attempt)).allowed, true)
    const sprayed = await Promise.all(
      Array.from({ length: 60 }, (_, i) => limiter.take({ email: `u${i}@team.test`, address: '203.0.113.7' })),
    )
    assert.equal(sprayed.filter((v) => v.allowed).length, 100 - 51, 'the address had used 51 of its 100 attempts')
  })
})

describe('password hashing', () => {
  test(
    'a server started as `npm run server` starts it stores new passwords with 600 000 PBKDF2-SHA256 iterations (OWASP)',
    { timeout: 60_000 },
    async () => {
      // Every other test server lowers the iterations; this one is configured only by FERRY_* variables.
      const dataDir = await mkdtemp(join(tmpdir(), 'ferry-hash-default-'))
      const databaseUrl = await testDatabaseUrl()
      const server = await startServerProcess({ dataDir, databaseUrl })
      try {
        await signup(httpFetch(server.url), 'ada@default.test')
        const db = await openServerDb({ dataDir, databaseUrl })
        const { password_hash: stored } = await db
          .selectFrom('users')
          .select('password_hash')
          .where('email', '=', 'ada@default.test')
          .executeTakeFirstOrThrow()
        await db.destroy()
        assert.match(stored, /^pbkdf2-sha256\$600000\$/)
      } finally {
        await server.stop()
        await rm(dataDir, { recursive: true, force: true })
      }
    },
  )

  test('a hash made with fewer iterations than configured is upgraded at the next successful login', async () => {
    const m = await memoryApp({ passwordIterations: 2000 })
    const session = await signup(m.fetch, 'ada@team.test')
    const weak = await hashPassword(PASSWORD, 1000)
    await m.db.updateTable('users').set({ password_hash: weak }).where('email', '=', 'ada@team.test').execute()
    const stored = async () =>
      (
        await m.db
          .selectFrom('users')
          .select('password_hash')
          .where('email', '=', 'ada@team.test')
          .executeTakeFirstOrThrow()
      ).password_hash

    assert.equal((await login(m.fetch, 'ada@team.test', 'wrong-password')).status, 401)
    assert.equal(await stored(), weak, 'a failed login changes nothing')
    assert.equal((await login(m.fetch, 'ada@team.test', PASSWORD)).status, 200)
    assert.match(await stored(), /^pbkdf2-sha256\$2000\$/)
    assert.equal((await login(m.fetch, 'ada@team.test', PASSWORD)).status, 200, 'the password still works')
    assert.equal((await m.fetch('/v1/whoami', bearer(session.token))).status, 200, 'earlier tokens stay valid')
  })
})

describe('tokens', () => {
  test('a correctly signed token without exp is refused', async () => {
    const m = await memoryApp()
    const session = await signup(m.fetch, 'ada@team.test')
    const forever = await new SignJWT({ team: session.team.id, tv: 0 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(session.user.id)
      .setIssuedAt()
      .sign(new TextEncoder().encode(JWT_SECRET))
    await expectProblem(await m.fetch('/v1/whoami', bearer(forever)), 401, 'unauthorized')
    assert.equal((await m.fetch('/v1/whoami', bearer(session.token))).status, 200)
  })

  test('responses that carry a token are not stored by caches', async () => {
    const m = await memoryApp()
    const res = await m.fetch(
      '/v1/auth/signup',
      jsonBody({ teamName: 'T', name: 'Ada', email: 'ada@team.test', password: PASSWORD }, undefined, {
        'x-ferry-signup-key': 'test-signup-key-0123456789',
      }),
    )
    assert.equal(res.status, 201)
    assert.equal(res.headers.get('cache-control'), 'no-store')
    const again = await login(m.fetch, 'ada@team.test', PASSWORD)
    assert.equal(again.status, 200)
    assert.equal(again.headers.get('cache-control'), 'no-store')
  })
})

describe('security headers over HTTP', () => {
  let server: TestServer
  let f: Fetch
  let token: string
  let download: string
  before(async () => {
    server = await startTestServer()
    f = httpFetch(server.url)
    token = await prepareUploadTeam(f, 'harbor-notes')
    const form = uploadForm(
      { version: '1.1.0', channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' },
      [['Harbor-1.1.0.exe', 'MZ harbor']],
    )
    const res = await f('/v1/apps/harbor-notes/versions', bearer(token, { method: 'POST', body: form }))
    assert.equal(res.status, 201)
    const version = (await res.json()) as { artifacts: Array<{ downloadUrl: string }> }
    download = new URL(version.artifacts[0]?.downloadUrl ?? '').pathname
  })
  after(async () => server.stop())

  test('every kind of response carries them: JSON, problems, 404s, update feeds, redirects, downloads, preflights', async () => {
    const update = '/v1/apps/harbor-notes/update?platform=windows&arch=x64'
    const cases: Array<[string, string, RequestInit | undefined, number]> = [
      ['JSON', '/v1/whoami', bearer(token), 200],
      ['health', '/v1/health', undefined, 200],
      ['problem', '/v1/whoami', undefined, 401],
      ['unknown route', '/v1/nope', undefined, 404],
      ['update check', `${update}&version=1.0.0`, undefined, 200],
      ['no update', `${update}&version=1.1.0`, undefined, 204],
      ['Squirrel feed', '/v1/apps/harbor-notes/squirrel/stable/x64/RELEASES', undefined, 200],
      ['latest redirect', '/v1/apps/harbor-notes/latest?packageType=exe&platform=windows&arch=x64', undefined, 302],
      ['download', download, undefined, 200],
      ['preflight', '/v1/apps', { method: 'OPTIONS' }, 204],
    ]
    for (const [what, path, init, status] of cases) {
      const res = await f(path, init)
      await res.arrayBuffer()
      assert.equal(res.status, status, `${what}: ${path}`)
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', what)
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer', what)
      assert.equal(res.headers.get('x-frame-options'), 'DENY', what)
      assert.equal(res.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'", what)
      assert.equal(res.headers.get('access-control-allow-origin'), null, `${what}: no CORS unless configured`)
    }
  })
})

describe('CORS', () => {
  const ADMIN = 'https://admin.example.com'
  const preflight = (f: Fetch, path: string, origin: string) =>
    f(path, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    })

  test('by default no origin is allowed: preflights get a bare 204, responses no CORS headers', async () => {
    const m = await memoryApp()
    const res = await preflight(m.fetch, '/v1/apps', ADMIN)
    assert.equal(res.status, 204)
    assert.equal(res.headers.get('access-control-allow-origin'), null)
    assert.equal(res.headers.get('access-control-allow-methods'), null)
    const health = await m.fetch('/v1/health', { headers: { origin: ADMIN } })
    assert.equal(health.headers.get('access-control-allow-origin'), null)
    assert.equal(health.headers.get('vary'), null)
  })

  test('a listed origin gets preflights answered and may read responses; others may not', async () => {
    const m = await memoryApp({ corsOrigins: [ADMIN] })
    const ok = await preflight(m.fetch, '/v1/apps/harbor-notes/versions', ADMIN)
    assert.equal(ok.status, 204)
    assert.equal(ok.headers.get('access-control-allow-origin'), ADMIN)
    assert.equal(ok.headers.get('access-control-allow-methods'), 'GET, POST')
    const allowedHeaders = (ok.headers.get('access-control-allow-headers') ?? '').split(', ')
    for (const h of ['authorization', 'content-type', 'x-ferry-signup-key', 'x-ferry-device-id'])
      assert.ok(allowedHeaders.includes(h), h)
    assert.equal(ok.headers.get('access-control-max-age'), '3600')
    assert.equal(ok.headers.get('access-control-allow-credentials'), null)
    assert.equal(ok.headers.get('vary'), 'Origin')

    const other = await preflight(m.fetch, '/v1/apps', 'https://evil.example')
    assert.equal(other.status, 204)
    assert.equal(other.headers.get('access-control-allow-origin'), null)
    assert.equal(other.headers.get('access-control-allow-methods'), null)
    await expectProblem(await preflight(m.fetch, '/v1/nope', ADMIN), 404, 'not-found')

    const read = await m.fetch('/v1/health', { headers: { origin: ADMIN } })
    assert.equal(read.headers.get('access-control-allow-origin'), ADMIN)
    assert.equal(read.headers.get('vary'), 'Origin')
    const exposed = (read.headers.get('access-control-expose-headers') ?? '').split(', ')
    for (const h of ['Location', 'Retry-After', 'Content-Disposition']) assert.ok(exposed.includes(h), h)
    const notListed = await m.fetch('/v1/health', { headers: { origin: 'https://evil.example' } })
    assert.equal(notListed.headers.get('access-control-allow-origin'), null)
    assert.equal(notListed.headers.get('vary'), 'Origin', 'the answer depends on Origin, so caches must know')
    const refused = await m.fetch('/v1/whoami', { headers: { origin: ADMIN } })
    assert.equal(refused.status, 401)
    assert.equal(refused.headers.get('access-control-allow-origin'), ADMIN, 'problems are readable too')
  })

  test('"*" allows any origin without credentials', async () => {
    const m = await memoryApp({ corsOrigins: '*' })
    const res = await preflight(m.fetch, '/v1/auth/login', 'https://anyone.example')
    assert.equal(res.headers.get('access-control-allow-origin'), '*')
    assert.equal(res.headers.get('access-control-allow-methods'), 'POST')
    const read = await m.fetch('/v1/health', { headers: { origin: 'https://anyone.example' } })
    assert.equal(read.headers.get('access-control-allow-origin'), '*')
    assert.equal(read.headers.get('vary'), null)
  })
})
