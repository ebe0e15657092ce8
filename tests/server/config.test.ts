/** Configuration: validation of every variable, and the docs and .env.example list exactly what the code reads. */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { readFile, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { pino } from 'pino'
import {
  ConfigError,
  DEFAULT_MAX_UPLOAD_BYTES,
  VARIABLES,
  loadConfig,
  unknownVariables,
  type Variable,
} from '../../server/runtime/config.ts'
import { renderEnvExample } from '../../scripts/env-example.ts'
import { startServer } from '../../server/runtime/node.ts'
import { TEST_ITERATIONS, bearer, httpFetch, prepareUploadTeam, testServerConfig, uploadForm } from './helpers.ts'

const root = join(import.meta.dirname, '..', '..')
const namesIn = (text: string, pattern: RegExp) => new Set([...text.matchAll(pattern)].map((m) => m[1] as string))

test('defaults need no environment at all', () => {
  assert.deepEqual(loadConfig({}), {
    host: '127.0.0.1',
    port: 8080,
    dataDir: './data',
    signupKey: undefined,
    jwtSecret: undefined,
    publicUrl: undefined,
    allowedHosts: undefined,
    maxUploadBytes: DEFAULT_MAX_UPLOAD_BYTES,
    mcpCallsPerMinute: 60,
    logLevel: 'info',
    telemetry: true,
    cache: true,
    leanHttp: true,
    redisUrl: undefined,
    databaseUrl: undefined,
    databasePoolSize: 10,
    databaseStatementTimeoutMs: 15_000,
    blobs: { kind: 'fs' },
    downloadMode: 'stream',
    orphanMinAgeSeconds: 3600,
    auditRetentionDays: 365,
    corsOrigins: [],
    loginAttemptsPerAddress: 100,
    trustedProxies: [],
    tufTimestampSeconds: 86400,
    metrics: undefined,
    edgeCaching: { cacheSeconds: 0, staleSeconds: 0 },
    purge: undefined,
    accelRedirectPrefix: undefined,
    healthPolicy: { maxFailureRatio: 0.2, minReports: 20 },
    webhookAllowPrivate: false,
  })
})

test('FERRY_ALLOWED_HOSTS: names with an optional port, in lower case and without a trailing dot', () => {
  assert.deepEqual(loadConfig({ FERRY_ALLOWED_HOSTS: 'Updates.Example.com., 10.0.0.5:8080,[::1]:9000' }).allowedHosts, [
    'updates.example.com',
    '10.0.0.5:8080',
    '[::1]:9000',
  ])
  for (const bad of ['https://updates.example.com', 'updates.example.com/v1', 'host:99999', 'a b'])
    assert.throws(
      () => loadConfig({ FERRY_ALLOWED_HOSTS: `ok.example.com,${bad}` }),
      new RegExp(
        `FERRY_ALLOWED_HOSTS must be comma-separated host names .*got ${JSON.stringify(bad).replace(/[.[\]/]/g, '\\$&')}`,
      ),
      bad,
    )
})

test('FERRY_ACCEL_REDIRECT_PREFIX: a path between slashes, and only with artifacts on disk', () => {
  assert.equal(loadConfig({ FERRY_ACCEL_REDIRECT_PREFIX: '/_ferry_blobs/' }).accelRedirectPrefix, '/_ferry_blobs/')
  assert.throws(
    () => loadConfig({ FERRY_ACCEL_REDIRECT_PREFIX: '_ferry_blobs' }),
    /FERRY_ACCEL_REDIRECT_PREFIX must be a path that starts and ends with \//,
  )
  assert.throws(
    () => loadConfig({ FERRY_ACCEL_REDIRECT_PREFIX: '/_ferry_blobs/', FERRY_BLOB_URL: 's3://bucket' }),
    /FERRY_ACCEL_REDIRECT_PREFIX needs artifacts on disk/,
  )
})

test('edge caching and purge: values, ranges, and a method without a URL', () => {
  const config = loadConfig({
    FERRY_UPDATE_CACHE_SECONDS: '300',
    FERRY_UPDATE_STALE_SECONDS: '30',
    FERRY_PURGE_URL: 'http://127.0.0.1:6081/',
    FERRY_PURGE_METHOD: 'BAN',
  })
  assert.deepEqual(config.edgeCaching, { cacheSeconds: 300, staleSeconds: 30 })
  assert.deepEqual(config.purge, { url: 'http://127.0.0.1:6081/', method: 'BAN' })
  assert.throws(
    () => loadConfig({ FERRY_UPDATE_CACHE_SECONDS: '86401', FERRY_PURGE_URL: 'varnish:6081' }),
    (error: ConfigError) => {
      assert.deepEqual(error.problems, [
        'FERRY_UPDATE_CACHE_SECONDS must be an integer from 0 to 86400, got "86401"',
        'FERRY_PURGE_URL must be an http(s) URL, got "varnish:6081"',
      ])
      return true
    },
  )
  assert.throws(() => loadConfig({ FERRY_PURGE_METHOD: 'BAN' }), /FERRY_PURGE_METHOD is set but FERRY_PURGE_URL is not/)
})

test('the default health policy: FERRY_HEALTH_POLICY_MAX_FAILURE_RATIO and _MIN_REPORTS, each checked', () => {
  assert.deepEqual(
    loadConfig({ FERRY_HEALTH_POLICY_MAX_FAILURE_RATIO: '0.05', FERRY_HEALTH_POLICY_MIN_REPORTS: '200' }).healthPolicy,
    { maxFailureRatio: 0.05, minReports: 200 },
  )
  assert.deepEqual(loadConfig({ FERRY_HEALTH_POLICY_MAX_FAILURE_RATIO: '1' }).healthPolicy, {
    maxFailureRatio: 1,
    minReports: 20,
  })
  assert.throws(
    () => loadConfig({ FERRY_HEALTH_POLICY_MAX_FAILURE_RATIO: '20%', FERRY_HEALTH_POLICY_MIN_REPORTS: '0' }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError)
      assert.deepEqual(error.problems, [
        'FERRY_HEALTH_POLICY_MAX_FAILURE_RATIO must be a decimal from 0 to 1 (0.2 is 20 %), got "20%"',
        'FERRY_HEALTH_POLICY_MIN_REPORTS must be an integer from 1 to 1000000, got "0"',
      ])
      return true
    },
  )
  assert.throws(
    () => loadConfig({ FERRY_HEALTH_POLICY_MAX_FAILURE_RATIO: '1.5' }),
    /FERRY_HEALTH_POLICY_MAX_FAILURE_RATIO must be a decimal from 0 to 1/,
  )
})

test('valid values are parsed', () => {
  const config = loadConfig({
    FERRY_HOST: '0.0.0.0',
    FERRY_PORT: '9000',
    FERRY_DATA_DIR: '/srv/ferry',
    FERRY_SIGNUP_KEY: 's'.repeat(16),
    FERRY_JWT_SECRET: 'j'.repeat(32),
    FERRY_PUBLIC_URL: 'https://updates.example.com/',
    FERRY_MAX_UPLOAD_BYTES: '1048576',
    FERRY_LOG_LEVEL: 'debug',
    FERRY_TELEMETRY: 'off',
    FERRY_CACHE: 'off',
    FERRY_LEAN_HTTP: 'off',
    FERRY_REDIS_URL: 'redis://127.0.0.1:6379/0',
    FERRY_CORS_ORIGINS: 'https://admin.example.com, http://localhost:3000',
    FERRY_LOGIN_ATTEMPTS_PER_ADDRESS: '0',
  })
  assert.equal(config.loginAttemptsPerAddress, 0)
  assert.deepEqual(config.corsOrigins, ['https://admin.example.com', 'http://localhost:3000'])
  assert.equal(config.telemetry, false)
  assert.equal(config.cache, false)
  assert.equal(config.leanHttp, false)
  assert.equal(config.redisUrl, 'redis://127.0.0.1:6379/0')
  assert.equal(config.port, 9000)
  assert.equal(config.publicUrl, 'https://updates.example.com')
  assert.equal(config.maxUploadBytes, 1048576)
  assert.equal(config.logLevel, 'debug')
})

test('PostgreSQL: a postgres URL with shared secrets, pool and timeout; without the secrets it refuses to start', () => {
  const secrets = { FERRY_SIGNUP_KEY: 's'.repeat(16), FERRY_JWT_SECRET: 'j'.repeat(32) }
  const config = loadConfig({
    ...secrets,
    FERRY_DATABASE_URL: 'postgres://ferry:pw@db:5432/ferry',
    FERRY_DATABASE_POOL_SIZE: '25',
    FERRY_DATABASE_STATEMENT_TIMEOUT_MS: '2000',
  })
  assert.equal(config.databaseUrl, 'postgres://ferry:pw@db:5432/ferry')
  assert.equal(config.databasePoolSize, 25)
  assert.equal(config.databaseStatementTimeoutMs, 2000)
  assert.throws(
    () => loadConfig({ FERRY_DATABASE_URL: 'postgres://ferry:pw@db/ferry' }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError)
      assert.match(error.message, /FERRY_DATABASE_URL \(PostgreSQL\) needs FERRY_JWT_SECRET and FERRY_SIGNUP_KEY/)
      return true
    },
  )
  assert.throws(
    () => loadConfig({ ...secrets, FERRY_DATABASE_URL: 'mysql://u:hunter2@db/ferry', FERRY_DATABASE_POOL_SIZE: '0' }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError)
      assert.match(error.message, /FERRY_DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/)
      assert.doesNotMatch(error.message, /hunter2/)
      assert.match(error.message, /FERRY_DATABASE_POOL_SIZE must be an integer from 1 to 1000/)
      return true
    },
  )
})

test('object storage: FERRY_BLOB_URL and the FERRY_S3_* settings', () => {
  const s3 = loadConfig({
    FERRY_BLOB_URL: 's3://ferry-artifacts/prod/ferry',
    FERRY_S3_ENDPOINT: 'http://127.0.0.1:7480/',
    FERRY_S3_ACCESS_KEY_ID: 'AKID',
    FERRY_S3_SECRET_ACCESS_KEY: 'secret',
    FERRY_DOWNLOAD_MODE: 'redirect',
    FERRY_S3_PRESIGN_SECONDS: '60',
    FERRY_ORPHAN_MIN_AGE_SECONDS: '0',
  })
  assert.deepEqual(s3.blobs, {
    kind: 's3',
    bucket: 'ferry-artifacts',
    prefix: 'prod/ferry/',
    endpoint: 'http://127.0.0.1:7480',
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret' },
    forcePathStyle: true,
    presignSeconds: 60,
  })
  assert.equal(s3.downloadMode, 'redirect')
  assert.equal(s3.orphanMinAgeSeconds, 0)
  // AWS S3 itself: no endpoint, virtual-hosted style, region and credentials from the SDK's chain.
  assert.deepEqual(loadConfig({ FERRY_BLOB_URL: 's3://my.bucket' }).blobs, {
    kind: 's3',
    bucket: 'my.bucket',
    prefix: '',
    endpoint: undefined,
    region: undefined,
    credentials: undefined,
    forcePathStyle: false,
    presignSeconds: 900,
  })
  const r2 = loadConfig({
    FERRY_BLOB_URL: 's3://b-1/',
    FERRY_S3_ENDPOINT: 'https://acct.r2.cloudflarestorage.com',
    FERRY_S3_REGION: 'auto',
    FERRY_S3_FORCE_PATH_STYLE: 'off',
  })
  assert.deepEqual(r2.blobs.kind === 's3' && [r2.blobs.prefix, r2.blobs.region, r2.blobs.forcePathStyle], [
    '',
    'auto',
    false,
  ])
})

test('object storage settings that cannot work are refused, naming the variable', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env)
    } catch (error) {
      assert.ok(error instanceof ConfigError)
      return error.problems
    }
    return []
  }
  for (const url of [
    's3://',
    's3://UPPER',
    's3://ab',
    'file:///srv/blobs',
    'https://bucket.s3.amazonaws.com',
    's3://bucket/../up',
    's3://bucket/a//b',
    's3://bucket/sp ace',
  ]) {
    assert.match(problems({ FERRY_BLOB_URL: url }).join('\n'), /^FERRY_BLOB_URL must be s3:\/\/<bucket>/, url)
  }
  assert.deepEqual(problems({ FERRY_BLOB_URL: 's3://bucket', FERRY_S3_ACCESS_KEY_ID: 'AKID' }), [
    'FERRY_S3_SECRET_ACCESS_KEY must be set together with FERRY_S3_ACCESS_KEY_ID',
  ])
  assert.deepEqual(problems({ FERRY_S3_ENDPOINT: 'http://127.0.0.1:9000', FERRY_DOWNLOAD_MODE: 'redirect' }), [
    'FERRY_S3_ENDPOINT needs FERRY_BLOB_URL=s3://<bucket>[/<prefix>]',
    'FERRY_DOWNLOAD_MODE=redirect needs FERRY_BLOB_URL=s3://<bucket>[/<prefix>]',
  ])
})

test('every bad value is reported at once, naming its variable', () => {
  const bad = {
    FERRY_HOST: 'not a host',
    FERRY_PORT: '70000',
    FERRY_SIGNUP_KEY: 'short',
    FERRY_JWT_SECRET: 'short',
    FERRY_PUBLIC_URL: 'ftp://x',
    FERRY_MAX_UPLOAD_BYTES: '-1',
    FERRY_LOG_LEVEL: 'loud',
    FERRY_TELEMETRY: 'yes',
    FERRY_CACHE: '1',
    FERRY_REDIS_URL: 'localhost:6379',
    FERRY_BLOB_URL: 's3:/bucket',
    FERRY_S3_ENDPOINT: 'http://minio:9000/path',
    FERRY_S3_REGION: 'US East',
    FERRY_S3_FORCE_PATH_STYLE: 'true',
    FERRY_S3_PRESIGN_SECONDS: '604801',
    FERRY_DOWNLOAD_MODE: 'cdn',
    FERRY_ORPHAN_MIN_AGE_SECONDS: 'an hour',
    FERRY_CORS_ORIGINS: 'https://admin.example.com/',
    FERRY_LOGIN_ATTEMPTS_PER_ADDRESS: '-1',
  }
  let error: unknown
  try {
    loadConfig(bad)
  } catch (e) {
    error = e
  }
  assert.ok(error instanceof ConfigError)
  for (const name of Object.keys(bad))
    assert.ok(
      error.problems.some((p) => p.startsWith(name)),
      `${name} not named: ${error.message}`,
    )
  assert.equal(error.problems.length, Object.keys(bad).length)
})

test('FERRY_CORS_ORIGINS: * alone, or exact http(s) origins', () => {
  assert.equal(loadConfig({ FERRY_CORS_ORIGINS: '*' }).corsOrigins, '*')
  assert.deepEqual(loadConfig({ FERRY_CORS_ORIGINS: 'https://a.example,https://a.example' }).corsOrigins, [
    'https://a.example',
  ])
  assert.deepEqual(loadConfig({ FERRY_CORS_ORIGINS: 'https://a.example:8443' }).corsOrigins, ['https://a.example:8443'])
  const refused = (raw: string) => {
    try {
      loadConfig({ FERRY_CORS_ORIGINS: raw })
    } catch (error) {
      assert.ok(error instanceof ConfigError)
      return error.problems.join('\n')
    }
    assert.fail(`${raw} was accepted`)
  }
  assert.match(refused('*, https://a.example'), /cannot be combined/)
  for (const raw of [
    'https://a.example/app',
    'a.example',
    'ftp://a.example',
    'https://a.example,',
    'HTTPS://A.EXAMPLE',
  ]) {
    assert.match(refused(raw), /^FERRY_CORS_ORIGINS must be \* or comma-separated origins/, raw)
  }
})

test('a FERRY_ variable Ferry does not read is named with the known one closest to it', () => {
  assert.deepEqual(
    unknownVariables({
      FERRY_PUBLIC_ULR: 'https://updates.example.com',
      FERRY_DATABSE_URL: 'postgres://db/ferry',
      FERRY_LOGLEVEL: 'debug',
      FERRY_PORTT: '8081',
      FERRY_S3_ENDPIONT: 'https://s3.example.com',
      FERRY_UPDATE_CACHE_SECOND: '60',
      FERRY_S3_BUCKET_NAME: 'ferry',
      PATH: '/usr/bin',
    }),
    [
      { variable: 'FERRY_DATABSE_URL', closest: 'FERRY_DATABASE_URL' },
      { variable: 'FERRY_LOGLEVEL', closest: 'FERRY_LOG_LEVEL' },
      { variable: 'FERRY_PORTT', closest: 'FERRY_PORT' },
      { variable: 'FERRY_PUBLIC_ULR', closest: 'FERRY_PUBLIC_URL' },
      // Nothing Ferry reads is a typo away: no suggestion rather than an unrelated name.
      { variable: 'FERRY_S3_BUCKET_NAME', closest: undefined },
      { variable: 'FERRY_S3_ENDPIONT', closest: 'FERRY_S3_ENDPOINT' },
      { variable: 'FERRY_UPDATE_CACHE_SECOND', closest: 'FERRY_UPDATE_CACHE_SECONDS' },
    ],
  )
  const known = Object.fromEntries(Object.values(VARIABLES).map((v) => [v.name, 'x']))
  const otherTools = { FERRY_URL: 'https://updates.example.com', FERRY_TOKEN: 'x', FERRY_TEST_BACKEND: 'postgres' }
  assert.deepEqual(unknownVariables({ ...known, ...otherTools }), [], "every server variable, and the CLI's and tests'")
})

test('config.ts reads no variable outside VARIABLES', async () => {
  const source = await readFile(join(root, 'server', 'runtime', 'config.ts'), 'utf8')
  const named = new Set<string>(Object.values(VARIABLES).map((v) => v.name))
  assert.equal(named.size, Object.keys(VARIABLES).length, 'one entry per variable')
  const read = namesIn(source, /env(?:\.|\[')(FERRY_[A-Z0-9_]+)/g)
  assert.ok(read.has('FERRY_BLOB_URL'), 'the check sees the direct reads')
  assert.deepEqual(
    [...read].filter((name) => !named.has(name)),
    [],
  )
})

test('env-overview.mdx lists exactly the variables of VARIABLES, with their defaults', async () => {
  const page = await readFile(join(root, 'pages', 'docs', 'getting-started', 'env-overview.mdx'), 'utf8')
  // The first table (variable, default, example, meaning); the second lists accepted values.
  const rows = new Map<string, string>()
  for (const m of page.matchAll(/^\| `(FERRY_[A-Z0-9_]+)` \| ([^|]*) \|/gm))
    if (!rows.has(m[1]!)) rows.set(m[1]!, m[2]!)
  assert.deepEqual(
    [...rows.keys()].sort(),
    Object.values(VARIABLES)
      .map((v) => v.name)
      .sort(),
    'env-overview.mdx table',
  )
  for (const variable of Object.values(VARIABLES) as Array<Variable<unknown>>) {
    if ('default' in variable)
      assert.ok(
        rows.get(variable.name)?.includes(`\`${variable.default}\``),
        `${variable.name}: the docs' default is not \`${variable.default}\`: ${rows.get(variable.name)}`,
      )
  }
})

test("env-overview.mdx's rules: every variable has one, and each integer range is the one enforced", async () => {
  const page = await readFile(join(root, 'pages', 'docs', 'getting-started', 'env-overview.mdx'), 'utf8')
  const rules = page.slice(page.indexOf('| Variable | Accepted |'))
  const rows = [...rules.slice(0, rules.indexOf('\n\n')).matchAll(/^\| (`FERRY_[^|]*) \| ([^|]*) \|$/gm)].map((m) => ({
    names: [...m[1]!.matchAll(/`(FERRY_[A-Z0-9_]+)`/g)].map((n) => n[1]!),
    accepted: m[2]!,
  }))
  const variables = Object.values(VARIABLES) as Array<Variable<unknown>>
  assert.deepEqual(
    rows.flatMap((r) => r.names).sort(),
    variables
      .map((v) => v.name)
      .filter((name) => name !== 'FERRY_DATA_DIR') // any path: said below the table
      .sort(),
  )
  let ranges = 0
  for (const { names, accepted } of rows) {
    const range = /^An integer from (\d+) to (\d+)/.exec(accepted)
    if (!range) continue
    const [min, max] = [Number(range[1]), Number(range[2])]
    for (const name of names) {
      const needs = variables.find((v) => v.name === name)?.needs
      const needed = variables.find((v) => v.name === needs)
      const env = (raw: number) => ({
        ...(needed && 'example' in needed ? { [needed.name]: needed.example } : {}),
        [name]: String(raw),
      })
      for (const ok of [min, max]) assert.doesNotThrow(() => loadConfig(env(ok)), `${name}=${ok} is accepted`)
      for (const bad of [min - 1, max + 1].filter((n) => n >= 0))
        assert.throws(
          () => loadConfig(env(bad)),
          (error: unknown) =>
            error instanceof ConfigError &&
            error.message === `invalid configuration: ${name} must be an integer from ${min} to ${max}, got "${bad}"`,
        )
      ranges++
    }
  }
  assert.ok(ranges >= 12, `${ranges} ranges checked`)
})

test('.env.example is rendered from VARIABLES, and used as it is it starts a default server', async () => {
  const example = await readFile(join(root, '.env.example'), 'utf8')
  assert.equal(example, renderEnvExample(), '.env.example is out of date: run npx tsx scripts/env-example.ts')
  const assignments = Object.fromEntries([...example.matchAll(/^(FERRY_[A-Z0-9_]+)=(.*)$/gm)].map((m) => [m[1], m[2]]))
  assert.ok(Object.keys(assignments).length >= 10)
  assert.deepEqual(
    loadConfig(assignments),
    loadConfig({}),
    'its uncommented values are the defaults and valid together',
  )
})

test('no server file reads the environment except through config.ts', async () => {
  const offenders: string[] = []
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) await walk(path)
      else if (entry.name.endsWith('.ts') && /process\.env(?!\))/.test(await readFile(path, 'utf8')))
        offenders.push(path)
    }
  }
  await walk(join(root, 'server'))
  assert.deepEqual(offenders, [])
})

test('FERRY_METRICS_PORT: off by default, on 127.0.0.1 unless FERRY_METRICS_HOST says otherwise, never the API port', () => {
  assert.deepEqual(loadConfig({ FERRY_METRICS_PORT: '9464' }).metrics, { host: '127.0.0.1', port: 9464 })
  assert.deepEqual(loadConfig({ FERRY_METRICS_PORT: '9464', FERRY_METRICS_HOST: '0.0.0.0' }).metrics, {
    host: '0.0.0.0',
    port: 9464,
  })
  for (const [env, names] of [
    [{ FERRY_METRICS_PORT: '70000' }, /FERRY_METRICS_PORT/],
    [{ FERRY_METRICS_PORT: '8080' }, /FERRY_METRICS_PORT 8080 is the API's own port/],
    [{ FERRY_METRICS_HOST: '10.0.0.1' }, /FERRY_METRICS_HOST is set but FERRY_METRICS_PORT is not/],
    [{ FERRY_METRICS_PORT: '9464', FERRY_METRICS_HOST: 'bad host' }, /FERRY_METRICS_HOST must be a host name/],
  ] as const) {
    assert.throws(
      () => loadConfig(env),
      (error: unknown) => error instanceof ConfigError && names.test(error.message),
      JSON.stringify(env),
    )
  }
})

test('FERRY_PORT=0 asks for a free port; the server listens on one and names it', async () => {
  assert.equal(loadConfig({ FERRY_PORT: '0' }).port, 0)
  const dataDir = mkdtempSync(join(tmpdir(), 'ferry-port-0-'))
  const running = await startServer({
    config: testServerConfig(dataDir, { port: 0 }),
    logger: pino({ level: 'silent' }),
    passwordIterations: TEST_ITERATIONS,
  })
  try {
    const port = Number(new URL(running.url).port)
    assert.ok(port > 0, running.url)
    assert.equal((await fetch(`${running.url}/v1/health`)).status, 200)
  } finally {
    await running.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
})

test("FERRY_HEALTH_POLICY_*: the server's default health policy is the one a version without its own reports", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ferry-health-default-'))
  const env = { FERRY_HEALTH_POLICY_MAX_FAILURE_RATIO: '0.05', FERRY_HEALTH_POLICY_MIN_REPORTS: '200' }
  const running = await startServer({
    config: testServerConfig(dataDir, { port: 0, healthPolicy: loadConfig(env).healthPolicy }),
    logger: pino({ level: 'silent' }),
    passwordIterations: TEST_ITERATIONS,
  })
  try {
    const f = httpFetch(running.url)
    const token = await prepareUploadTeam(f, 'health-default')
    const form = uploadForm(
      { version: '1.0.0', channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' },
      [['setup.exe', 'installer']],
    )
    const created = await f('/v1/apps/health-default/versions', bearer(token, { method: 'POST', body: form }))
    assert.equal(created.status, 201, await created.clone().text())
    const version = (await created.json()) as { rollout: { health: { policy: unknown; defaultPolicy: boolean } } }
    assert.deepEqual(version.rollout.health.policy, {
      maxFailureRatio: 0.05,
      minReports: 200,
      minAddresses: 5,
      maxReportsPerAddress: 5,
    })
    assert.equal(version.rollout.health.defaultPolicy, true)
  } finally {
    await running.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
})
