/** Shared helpers of the server tests: a real Node server on an ephemeral port, HTTP helpers, response checks. */
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { access, mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before } from 'node:test'
import { createApp } from '../../server/app.ts'
import { loadConfig, type BlobLocation, type ServerConfig } from '../../server/runtime/config.ts'
import type { AppConfig, AppDeps } from '../../server/http/services.ts'
import type { RunningServer } from '../../server/runtime/node.ts'
import { nodeMcpEndpoint } from '../../server/runtime/mcp-node.ts'
import type { McpEndpoint } from '../../contract/mcp-endpoint.ts'
import { operations, type OperationId } from '../../server/http/spec.ts'
import { openFsBlobs } from '../../server/storage/blobs/blobs-fs.ts'
import { createMemoryBlobs } from '../../server/storage/blobs/blobs-memory.ts'
import { openNodeDb } from '../../server/storage/drivers/sqlite-node.ts'
import { openPostgresDb } from '../../server/storage/drivers/postgres-node.ts'
import { databases } from '../../services/postgres-server.ts'
import { environmentLocation } from '../../services/s3-location.ts'
import { localServerConfig, startLocalServer } from '../../services/ferry-server.ts'
import type { BlobStore, Db } from '../../server/core/storage.ts'
import { responseValidator } from '../../server/http/validation.ts'
import { openTufRepository } from '../../server/tuf/repository-node.ts'

export const SIGNUP_KEY = 'test-signup-key-0123456789'
export const JWT_SECRET = 'test-jwt-secret-0123456789abcdef0123456789'
export const PASSWORD = 'correct-horse-battery-staple'
export const TEST_ITERATIONS = 1000

const postgresDatabases = process.env.FERRY_TEST_DATABASE_URL
  ? databases(process.env.FERRY_TEST_DATABASE_URL)
  : undefined

export interface TestServer extends RunningServer {
  dataDir: string
  /** The PostgreSQL database it uses; `undefined`: SQLite in `<dataDir>/ferry.db`. */
  databaseUrl: string | undefined
  blobLocation: BlobLocation
  stop(): Promise<void>
}

/** A complete server config for tests: the defaults, test secrets, a free port, silent logs. */
export function testServerConfig(dataDir: string, overrides: Partial<ServerConfig> = {}): ServerConfig {
  return localServerConfig(
    dataDir,
    { signupKey: SIGNUP_KEY, jwtSecret: JWT_SECRET },
    {
      // FERRY_LEAN_HTTP=off runs a suite with node:http reading every request.
      ...(process.env.FERRY_LEAN_HTTP
        ? { leanHttp: loadConfig({ FERRY_LEAN_HTTP: process.env.FERRY_LEAN_HTTP }).leanHttp }
        : {}),
      maxUploadBytes: 10 * 1024 * 1024,
      ...overrides,
    },
  )
}

/** With FERRY_TEST_BACKEND=postgres, a fresh database for a test server; else SQLite in its data dir. */
export async function testDatabaseUrl(): Promise<string | undefined> {
  if (process.env.FERRY_TEST_BACKEND !== 'postgres') return undefined
  if (!postgresDatabases)
    throw new Error('FERRY_TEST_BACKEND=postgres needs FERRY_TEST_DATABASE_URL (npm run test:unit:pg sets both)')
  return postgresDatabases()
}

/**
 * With FERRY_TEST_BLOBS=s3 (set by `npm run test:unit:pg`), a fresh prefix in the bucket
 * FERRY_TEST_S3_* name; else files under the data dir.
 */
export function testBlobLocation(): BlobLocation {
  if (process.env.FERRY_TEST_BLOBS !== 's3') return { kind: 'fs' }
  if (!process.env.FERRY_TEST_S3_BUCKET)
    throw new Error('FERRY_TEST_BLOBS=s3 needs FERRY_TEST_S3_BUCKET and its endpoint (npm run test:unit:pg sets them)')
  return environmentLocation()
}

/** `config` may name another blob store (`blobs`, `downloadMode`), as `FERRY_BLOB_URL` would. */
export async function startTestServer(
  maxUploadBytes = 10 * 1024 * 1024,
  config: Partial<ServerConfig> = {},
): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'ferry-test-'))
  const blobLocation = config.blobs ?? testBlobLocation()
  const databaseUrl = 'databaseUrl' in config ? config.databaseUrl : await testDatabaseUrl()
  const running = await startLocalServer(
    testServerConfig(dataDir, { maxUploadBytes, ...config, databaseUrl, blobs: blobLocation }),
    TEST_ITERATIONS,
  )
  return {
    ...running,
    dataDir,
    databaseUrl,
    blobLocation,
    async stop() {
      await running.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * The metadata database of one test app: in-memory SQLite, or with FERRY_TEST_BACKEND=postgres
 * (set by `npm run test:unit:pg`) a fresh database on the PostgreSQL at FERRY_TEST_DATABASE_URL.
 */
export async function openTestDb(): Promise<Db> {
  const url = await testDatabaseUrl()
  return url ? openPostgresDb(url, { poolSize: 3, allowExitOnIdle: true }) : openNodeDb(':memory:')
}

/**
 * The database a server (in process or not) really stores into: its PostgreSQL, or the SQLite
 * file in its data dir, which must already exist (opening a fresh one would read nothing).
 */
export async function openServerDb(server: { dataDir: string; databaseUrl?: string | undefined }): Promise<Db> {
  if (server.databaseUrl) return openPostgresDb(server.databaseUrl, { poolSize: 1, allowExitOnIdle: true })
  const file = join(server.dataDir, 'ferry.db')
  await access(file)
  return openNodeDb(file)
}

/** Keys of the blobs a test server holds, whatever its store. */
export async function blobKeys(server: Pick<TestServer, 'blobs'>): Promise<string[]> {
  return (await server.blobs.list()).map((b) => b.key)
}

/**
 * Writes started and neither committed nor aborted: temp files under the data dir, or multipart
 * uploads under the bucket prefix (small blobs go to S3 in one PUT at commit and leave none).
 */
export async function unfinishedWrites(server: Pick<TestServer, 'blobLocation' | 'dataDir'>): Promise<string[]> {
  const location = server.blobLocation
  if (location.kind === 'fs') return readdir(join(server.dataDir, 'blobs', '.tmp'))
  const { S3Client, ListMultipartUploadsCommand } = await import('@aws-sdk/client-s3')
  const client = new S3Client({
    ...(location.endpoint ? { endpoint: location.endpoint } : {}),
    region: location.region ?? 'us-east-1',
    forcePathStyle: location.forcePathStyle,
    ...(location.credentials ? { credentials: location.credentials } : {}),
  })
  try {
    const listed = await client.send(
      new ListMultipartUploadsCommand({ Bucket: location.bucket, Prefix: location.prefix }),
    )
    return (listed.Uploads ?? []).map((u) => u.Key ?? '')
  } finally {
    client.destroy()
  }
}

/**
 * A blob store at `location`: for `fs`, files under `dir` (memory without one); by default the
 * store of one in-process test app, memory or a fresh prefix of the test bucket (`testBlobLocation`).
 */
export async function openTestBlobs(location = testBlobLocation(), dir?: string): Promise<BlobStore> {
  if (location.kind === 'fs') return dir ? openFsBlobs(dir) : createMemoryBlobs()
  const { openS3Blobs } = await import('../../server/storage/blobs/blobs-s3.ts')
  const { bucket, prefix, endpoint, region, credentials, forcePathStyle } = location
  return openS3Blobs({ bucket, prefix, endpoint, region, credentials, forcePathStyle })
}

/** An in-process app on the test database (or `deps.db`) and blob store (in-memory SQLite and memory blobs by default). */
/** The /mcp server of every memoryApp: its docs and contract are loaded once per process. */
let testMcp: Promise<McpEndpoint> | undefined
export const testMcpEndpoint = (): Promise<McpEndpoint> =>
  (testMcp ??= nodeMcpEndpoint('0.0.0-test').then((found) => {
    if ('missing' in found) throw new Error(found.missing)
    return found
  }))

export async function memoryApp(
  config: Partial<AppConfig> = {},
  clock?: () => Date,
  deps: Partial<
    Pick<
      AppDeps,
      'db' | 'answerCache' | 'clientIp' | 'loginLimiter' | 'logger' | 'edgePurger' | 'webhookUrlProblem' | 'events'
    >
  > = {},
) {
  const db: Db = deps.db ?? (await openTestDb())
  const blobs: BlobStore = await openTestBlobs()
  const app = createApp({
    mcp: await testMcpEndpoint(),
    ...deps,
    db,
    blobs,
    ...(clock ? { clock } : {}),
    tufRepository: openTufRepository,
    config: {
      signupKey: SIGNUP_KEY,
      // Its fetch names ferry.test; suites that serve it over HTTP reach it at 127.0.0.1.
      allowedHosts: ['ferry.test', '127.0.0.1'],
      jwtSecret: JWT_SECRET,
      maxUploadBytes: 1024 * 1024,
      passwordIterations: TEST_ITERATIONS,
      ...config,
    },
  })
  const fetchApp = async (path: string, init?: RequestInit): Promise<Response> =>
    app.request(`http://ferry.test${path}`, init)
  return { app, db, blobs, fetch: fetchApp }
}

export type Fetch = (path: string, init?: RequestInit) => Promise<Response>

export function httpFetch(base: string): Fetch {
  return (path, init) => fetch(base + path, { redirect: 'manual', ...init })
}

export const jsonBody = (body: unknown, token?: string, extra: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...extra },
  body: JSON.stringify(body),
})

export const bearer = (token: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { ...(init.headers as Record<string, string> | undefined), authorization: `Bearer ${token}` },
})

/** A login; `client` is the address for apps whose `clientIp` reads the `x-test-client` header. */
export const login = (f: Fetch, email: string, password: string, client?: string) =>
  f('/v1/auth/login', jsonBody({ email, password }, undefined, client ? { 'x-test-client': client } : {}))

/** How many responses had each status, e.g. `{ 401: 10, 429: 40 }`. */
export function countStatuses(responses: Response[]): Record<number, number> {
  const counts = new Map<number, number>()
  for (const r of responses) counts.set(r.status, (counts.get(r.status) ?? 0) + 1)
  return Object.fromEntries(counts)
}

export function uploadForm(fields: Record<string, string>, files: Array<[string, Uint8Array | string]>): FormData {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.set(k, v)
  for (const [name, data] of files) form.append('files', new File([data as BlobPart], name))
  return form
}

/** Sign up a team; returns the session. */
export async function signup(f: Fetch, email: string, teamName = 'Team') {
  const res = await f(
    '/v1/auth/signup',
    jsonBody({ teamName, name: 'Admin', email, password: PASSWORD }, undefined, { 'x-ferry-signup-key': SIGNUP_KEY }),
  )
  assert.equal(res.status, 201, await res.clone().text())
  return (await res.json()) as { token: string; user: { id: string }; team: { id: string } }
}

/** (operationId, status) pairs whose response was checked against the spec. */
export const checked = new Set<string>()

/**
 * Once a dependency is back (the caller awaited the event, e.g. PostgreSQL's `resume()`, which
 * returns when it accepts connections), repeats `request` until it answers 200. Every answer
 * before that must be the documented outage answer, a 503 `unavailable` problem with
 * Retry-After: a 500 or any other status fails at once. Each failed request drops one pooled
 * connection the outage broke, so a bounded number of attempts suffices, with no timer.
 */
export async function servedAgain(request: () => Promise<Response>, attempts = 20): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const res = await request()
    if (res.status === 200) return res
    assert.equal(
      res.headers.get('retry-after'),
      '5',
      `attempt ${attempt} after the outage: ${res.status} without Retry-After`,
    )
    await expectProblem(res, 503, 'unavailable')
    assert.ok(attempt < attempts, `still 503 after ${attempts} attempts once the dependency was back`)
  }
}

/**
 * Waits until `condition` holds, checking it again every 10 ms; fails naming `what` after
 * `timeoutMs`. For states a test cannot be told about by an event (a file removed by the server).
 */
export async function eventually(condition: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    assert.ok(Date.now() < deadline, `not within ${timeoutMs} ms: ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

/**
 * Asserts the response's status is listed for the operation, its content type matches, and
 * its body validates against the schema the spec gives for that status. Returns the body.
 */
export async function expectSpec(opId: OperationId, res: Response, status?: number): Promise<unknown> {
  const op = operations.find((o) => o.operationId === opId)
  assert.ok(op, `no operation ${opId}`)
  const text = await res.text()
  if (status !== undefined) assert.equal(res.status, status, `${opId}: expected ${status}, got ${res.status}: ${text}`)
  const listed = op.responses[String(res.status)]
  assert.ok(
    listed,
    `${opId}: status ${res.status} is not listed in the spec (${Object.keys(op.responses).join(', ')}): ${text}`,
  )
  const types = Object.keys(listed)
  checked.add(`${opId} ${res.status}`)
  if (types.length === 0) {
    assert.equal(text, '', `${opId} ${res.status}: expected an empty body`)
    return undefined
  }
  const contentType = (res.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? ''
  assert.ok(
    types.includes(contentType),
    `${opId} ${res.status}: content type ${contentType} not in ${types.join(', ')}`,
  )
  const schema = listed[contentType]
  if (!schema || contentType === 'application/octet-stream') return text
  const body = contentType.endsWith('json') ? JSON.parse(text) : text
  const validate = responseValidator(schema)
  assert.ok(
    validate(body),
    `${opId} ${res.status}: body does not match the spec: ${JSON.stringify(validate.errors)}\n${text}`,
  )
  return body
}

/** Asserts a problem response of the given kind that names `field` or `pointer` (when given). */
export async function expectProblem(
  res: Response,
  status: number,
  kind: string,
  names?: string,
): Promise<{ errors?: Array<{ field?: string; pointer?: string; message: string }>; detail: string }> {
  const text = await res.text()
  assert.equal(res.status, status, text)
  assert.equal(res.headers.get('content-type'), 'application/problem+json')
  const body = JSON.parse(text)
  assert.equal(body.type, `https://ferry.example.org/docs/troubleshooting#${kind}`)
  assert.equal(body.status, status)
  if (names !== undefined) {
    assert.ok(
      body.errors?.some((e: { field?: string; pointer?: string }) => e.field === names || e.pointer === names),
      `no error names ${names}: ${text}`,
    )
  }
  return body
}

/**
 * Signs a team up as `email`, then creates each catalog entry or app of `creations` (path and
 * body, in order) as its admin, each answering 201; returns the admin's token.
 */
export async function setUpTeam(
  f: Fetch,
  email: string,
  creations: ReadonlyArray<readonly [path: string, body: object]>,
): Promise<string> {
  const { token } = await signup(f, email)
  for (const [path, body] of creations) {
    const res = await f(path, jsonBody(body, token))
    assert.equal(res.status, 201, `${path} ${JSON.stringify(body)}: ${await res.text()}`)
  }
  return token
}

/**
 * A fresh team with the catalogs `stable`, `windows`, `x64` and one app; returns the admin's
 * token. For tests that upload versions.
 */
export async function prepareUploadTeam(f: Fetch, slug: string): Promise<string> {
  return setUpTeam(f, `admin-${Math.random()}@${slug}.test`, [
    ['/v1/channels', { name: 'stable' }],
    ['/v1/platforms', { name: 'windows' }],
    ['/v1/archs', { name: 'x64' }],
    ['/v1/apps', { slug, name: slug }],
  ])
}

/** A suite's test server, readable once the `before` hook `withTestServer` registered has run. */
export interface SuiteServer {
  readonly server: TestServer
  /** Requests to the server; callable from the start, it finds the server's URL on each call. */
  readonly f: Fetch
}

/** A suite's server with an upload team on it (`prepareUploadTeam`): the admin's token. */
export interface UploadTeam extends SuiteServer {
  readonly token: string
}

/**
 * A test server (`startTestServer`'s arguments) for the suite or describe block it is called in:
 * started in a `before` hook, stopped in an `after` hook. `prepare` runs once it listens.
 */
export function withTestServer(
  maxUploadBytes?: number,
  config: Partial<ServerConfig> = {},
  prepare?: (f: Fetch) => Promise<void>,
): SuiteServer {
  let server: TestServer | undefined
  const started = () => {
    if (!server) throw new Error('the suite server is used before its before() hook ran')
    return server
  }
  const f: Fetch = (path, init) => httpFetch(started().url)(path, init)
  before(async () => {
    server = await startTestServer(maxUploadBytes, config)
    await prepare?.(f)
  })
  after(async () => server?.stop())
  return {
    get server() {
      return started()
    },
    f,
  }
}

/**
 * `withTestServer` with a team on it that `prepareTeam` sets up; `token` is what it returns (an
 * admin's). `setUp` runs next, in the same hook: top-level `before` hooks of node:test start at
 * once, so a second hook of the suite's own could run before the team exists.
 */
export function withTeam(
  prepareTeam: (f: Fetch) => Promise<string>,
  maxUploadBytes?: number,
  config: Partial<ServerConfig> = {},
  setUp?: (team: UploadTeam) => Promise<void>,
): UploadTeam {
  let token: string | undefined
  const team: UploadTeam = {
    get server() {
      return suite.server
    },
    get f() {
      return suite.f
    },
    get token() {
      if (token === undefined) throw new Error('the suite team is used before its before() hook ran')
      return token
    },
  }
  const suite = withTestServer(maxUploadBytes, config, async (f) => {
    token = await prepareTeam(f)
    await setUp?.(team)
  })
  return team
}

/** `withTestServer` with an upload team for the app `slug` (`prepareUploadTeam`), then `setUp` (see `withTeam`). */
export function withUploadTeam(
  slug: string,
  maxUploadBytes?: number,
  config: Partial<ServerConfig> = {},
  setUp?: (team: UploadTeam) => Promise<void>,
): UploadTeam {
  return withTeam((f) => prepareUploadTeam(f, slug), maxUploadBytes, config, setUp)
}

/** Uploads version 1.0.0 of `app` (published, stable/windows/x64) with the one file `name`; returns its download URL's path. */
export async function uploadOneFile(
  f: Fetch,
  token: string,
  app: string,
  name: string,
  bytes: Uint8Array | string,
): Promise<string> {
  const fields = { version: '1.0.0', channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }
  const res = await f(
    `/v1/apps/${app}/versions`,
    bearer(token, { method: 'POST', body: uploadForm(fields, [[name, bytes]]) }),
  )
  assert.equal(res.status, 201, await res.clone().text())
  const body = (await res.json()) as { artifacts: Array<{ downloadUrl: string }> }
  return new URL(body.artifacts[0]?.downloadUrl ?? '').pathname
}

/**
 * Uploads a published stable/windows/x64 installer, `<app>-<version>.exe`, whose bytes name the
 * version (`fields` add or override form fields); returns the version's id.
 */
export async function uploadExe(
  f: Fetch,
  token: string,
  app: string,
  version: string,
  fields: Record<string, string> = {},
): Promise<string> {
  const form = { channel: 'stable', platform: 'windows', arch: 'x64', published: 'true', version, ...fields }
  const res = await f(
    `/v1/apps/${app}/versions`,
    bearer(token, { method: 'POST', body: uploadForm(form, [[`${app}-${version}.exe`, `bytes of ${version}`]]) }),
  )
  assert.equal(res.status, 201, await res.clone().text())
  return ((await res.json()) as { id: string }).id
}

/**
 * Uploads Electron's signed MSIX test package (fixtures/msix/HelloMSIX_V1.msix) as `version` of
 * `app` on stable/windows/x64, published: an app with an MSIX feed and an App Installer file.
 */
export async function uploadMsixFixture(f: Fetch, token: string, app: string, version: string): Promise<void> {
  const msix = await readFile(join(import.meta.dirname, 'fixtures', 'msix', 'HelloMSIX_V1.msix'))
  const fields = { channel: 'stable', platform: 'windows', arch: 'x64', published: 'true', version }
  const res = await f(
    `/v1/apps/${app}/versions`,
    bearer(token, { method: 'POST', body: uploadForm(fields, [[`${app}-${version}.msix`, msix]]) }),
  )
  assert.equal(res.status, 201, await res.clone().text())
}

/**
 * The encoded form as a request body that sends its first half, then waits for `rest` before
 * sending the remainder: an upload caught in flight.
 */
export async function halfThenWait(form: FormData, rest: Promise<void>) {
  const encoded = new Response(form)
  const whole = new Uint8Array(await encoded.arrayBuffer())
  let sent = 0
  // Chunks of 64 KiB, the first half never joined with the second: a small body stops at its
  // middle too, before the multipart's closing boundary.
  const half = Math.ceil(whole.byteLength / 2)
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent >= half) await rest
      if (sent >= whole.byteLength) return controller.close()
      const chunk = whole.subarray(sent, Math.min(sent + 64 * 1024, sent < half ? half : whole.byteLength))
      sent += chunk.byteLength
      controller.enqueue(chunk)
    },
  })
  return {
    init: (token: string, signal?: AbortSignal) =>
      ({
        method: 'POST',
        body,
        duplex: 'half',
        ...(signal ? { signal } : {}),
        headers: { authorization: `Bearer ${token}`, 'content-type': encoded.headers.get('content-type') ?? '' },
      }) as RequestInit,
    async halfSent() {
      while (sent < half) await new Promise((r) => setTimeout(r, 20))
    },
  }
}

/**
 * A Ferry server in a child process (`fixtures/child-server.ts`), for tests that kill it: its
 * data dir, optional PostgreSQL and blob store (default: files in the data dir). Resolves once
 * it listens.
 */
export function startChild(
  dataDir: string,
  databaseUrl?: string,
  blobs?: BlobLocation,
  extraEnv: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string }> {
  const script = join(import.meta.dirname, 'fixtures', 'child-server.ts')
  const env = { ...process.env, ...(blobs ? { FERRY_TEST_CHILD_BLOBS: JSON.stringify(blobs) } : {}), ...extraEnv }
  const child = spawn(process.execPath, ['--import', 'tsx', script, dataDir, ...(databaseUrl ? [databaseUrl] : [])], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
  })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const line = out.split('\n')[0]
      if (out.includes('\n') && line) resolve({ child, url: line.trim() })
    })
    child.once('exit', (code) => reject(new Error(`child exited early with ${code}`)))
  })
}

/** SIGKILL, resolved once the process is gone. */
export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  child.kill('SIGKILL')
  await exited
}
