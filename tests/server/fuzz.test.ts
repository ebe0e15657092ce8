/**
 * Spec-driven fuzzing of every operation of the contract against an in-process app with seeded
 * data: path, query and header parameters and bodies (JSON and multipart) built from the
 * operation's schemas, valid, broken in one place or hostile, sent anonymously, as the team
 * admin, as a restricted team user, as another team's admin and with forged credentials.
 * Nothing may answer 5xx or hang; every 4xx is an RFC 9457 problem, and every validation problem
 * names its fields. A second test runs a long mixed stream against one app and checks that what
 * the app keeps per request stays bounded.
 *
 * FUZZ_RUNS (inputs per operation, default 60) and FUZZ_SEED (default fixed) make it bigger or
 * different; a failure prints the seed to reproduce it. FUZZ_COLLECT=1 reports every 5xx at the
 * end instead of stopping at the first.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import fc from 'fast-check'
import { createApp } from '../../server/app.ts'
import { DEFAULT_MAX_ENTRIES, createMemoryCache, type AnswerCache } from '../../server/cache/answer-cache.ts'
import { encodeCursor } from '../../server/http/pagination.ts'
import { componentSchemas } from '../../contract/generated/operations.ts'
import { operations } from '../../server/http/spec.ts'
import { responseValidator } from '../../server/http/validation.ts'
import {
  JWT_SECRET,
  PASSWORD,
  SIGNUP_KEY,
  TEST_ITERATIONS,
  bearer,
  jsonBody,
  signup,
  uploadForm,
  type Fetch,
  openTestDb,
  openTestBlobs,
  testMcpEndpoint,
} from './helpers.ts'
import { deepJson, hostileString, schemaArbitraries, type JsonSchema } from './schema-arbitraries.ts'
import { buildDeb, buildRpm } from './linux-package-fixtures.ts'
import { readFileSync } from 'node:fs'
import { openTufRepository } from '../../server/tuf/repository-node.ts'
import {
  buildRoot,
  expiresInDays,
  newKeyPem,
  nextTargets,
  publicKey,
  signWith,
  signingKey,
} from '../../lib/ferry-cli/tuf-metadata.ts'
import { join } from 'node:path'

const MSIX_PACKAGE = new Uint8Array(readFileSync(join(import.meta.dirname, 'fixtures', 'msix', 'HelloMSIX_V1.msix')))
const LINUX_PACKAGES: Array<[string, Uint8Array]> = [
  ['fuzz-pkg_1.0.0_amd64.deb', buildDeb('fuzz-pkg', '1.0.0', 'amd64', 'gzip')],
  ['fuzz-pkg-1.0.0-1.noarch.rpm', buildRpm('fuzz-pkg', '1.0.0')],
]

/** What the fuzzer reads of an operation (the fields the generated operations table keeps too). */
interface ContractOperation {
  operationId: string
  method: string
  path: string
  permission: string
  parameters: ReadonlyArray<{ name: string; in: string; required: boolean; schema: JsonSchema }>
  body?: { contentType: string; schema: JsonSchema }
}
const CONTRACT: readonly ContractOperation[] = operations

const RUNS = Number(process.env.FUZZ_RUNS ?? 60)
const SEED = Number(process.env.FUZZ_SEED ?? 20250314)
const COLLECT = process.env.FUZZ_COLLECT === '1'
const REQUEST_TIMEOUT_MS = 10_000
const components: Record<string, JsonSchema> = Object.fromEntries(
  Object.entries(componentSchemas.schemas ?? {}).map(([name, schema]) => [name, { ...Object(schema) }]),
)

// ---------------------------------------------------------------------------------------------
// The fuzzed world: an in-process app with two teams, catalogs, apps, versions and users.

interface World {
  /** Sends a request to the app; `url` is absolute (the fuzzer picks the host too). */
  request: (url: string, init: RequestInit) => Promise<Response>
  tokens: Record<'admin' | 'user' | 'other', string>
  /** Values that exist (or nearly exist) in this world, by parameter or member name. */
  known: Map<string, unknown[]>
  /** Apps that exist or existed: the only ones the answer cache may keep state for. */
  apps: Set<string>
  /** Every app the answer cache was asked to invalidate. */
  invalidated: Set<string>
}

/** Wraps the in-process cache to see which apps it keeps generations for. */
function observedCache(invalidated: Set<string>, maxBytes?: number): AnswerCache {
  const inner = createMemoryCache(DEFAULT_MAX_ENTRIES, maxBytes)
  return {
    kind: inner.kind,
    get: (app, key) => inner.get(app, key),
    generation: (app) => inner.generation(app),
    set: (app, key, value, generation, ttl) => inner.set(app, key, value, generation, ttl),
    invalidate: async (apps) => {
      for (const app of apps) invalidated.add(app)
      return inner.invalidate(apps)
    },
    invalidateAll: () => inner.invalidateAll(),
    close: () => inner.close(),
  }
}

/** `hosts`: the Host names the app answers (FERRY_ALLOWED_HOSTS); seeding uses the first. */
async function createWorld(cacheBytes?: number, hosts: readonly string[] = ['ferry.test']): Promise<World> {
  const db = await openTestDb()
  const invalidated = new Set<string>()
  const app = createApp({
    db,
    blobs: await openTestBlobs(),
    mcp: await testMcpEndpoint(),
    answerCache: observedCache(invalidated, cacheBytes),
    config: {
      signupKey: SIGNUP_KEY,
      allowedHosts: hosts,
      jwtSecret: JWT_SECRET,
      maxUploadBytes: 256 * 1024,
      passwordIterations: TEST_ITERATIONS,
    },
    tufRepository: openTufRepository,
  })
  const fetch: Fetch = async (path, init) => app.request(`http://ferry.test${path}`, init)
  const ok = async (res: Promise<Response>, what: string) => {
    const r = await res
    if (r.status >= 300) throw new Error(`seeding ${what}: ${r.status} ${await r.text()}`)
    return r.json() as Promise<Record<string, unknown>>
  }
  const admin = await signup(fetch, 'admin@fuzz.test', 'Fuzz')
  const ids: Record<string, string[]> = { id: [], version: [], artifact: [] }
  for (const [path, bodies] of [
    ['/v1/channels', [{ name: 'stable' }, { name: 'beta' }]],
    [
      '/v1/platforms',
      [
        { name: 'windows', updater: 'squirrel-windows' },
        { name: 'darwin', updater: 'electron-builtin' },
        { name: 'linux', updater: 'tauri' },
      ],
    ],
    ['/v1/archs', [{ name: 'x64' }, { name: 'arm64' }]],
  ] as const) {
    for (const body of bodies) ids.id!.push(String((await ok(fetch(path, jsonBody(body, admin.token)), path)).id))
  }
  await ok(fetch('/v1/apps', jsonBody({ slug: 'fuzz-app', name: 'Fuzz' }, admin.token)), 'app')
  await ok(
    fetch('/v1/apps', jsonBody({ slug: 'fuzz-private', name: 'Private', private: true }, admin.token)),
    'private app',
  )
  const uploads: Array<[string, Record<string, string>, string[]]> = [
    [
      'fuzz-app',
      { version: '1.0.0', platform: 'windows', published: 'true' },
      ['Fuzz-1.0.0.exe', 'fuzz-1.0.0-full.nupkg', 'Fuzz-1.0.0.exe.blockmap'],
    ],
    [
      'fuzz-app',
      { version: '1.1.0', platform: 'windows', published: 'true', critical: 'true', rolloutPercentage: '50' },
      ['Fuzz-1.1.0.exe', 'fuzz-1.1.0-full.nupkg'],
    ],
    [
      'fuzz-app',
      { version: '1.0.0', platform: 'darwin', published: 'true' },
      ['Fuzz-1.0.0-mac.zip', 'Fuzz.app.tar.gz', 'Fuzz.app.tar.gz.sig'],
    ],
    [
      'fuzz-app',
      { version: '1.2.0-beta.1', platform: 'linux', published: 'false' },
      ['Fuzz.AppImage.tar.gz', 'Fuzz.AppImage.tar.gz.sig'],
    ],
    ['fuzz-private', { version: '2.0.0', platform: 'windows', published: 'true' }, ['Private-2.0.0.exe']],
  ]
  for (const [slug, fields, files] of uploads) {
    const form = uploadForm(
      { channel: 'stable', arch: 'x64', ...fields },
      files.map((n) => [n, `bytes of ${n}`]),
    )
    const version = await ok(
      fetch(`/v1/apps/${slug}/versions`, bearer(admin.token, { method: 'POST', body: form })),
      `upload to ${slug}`,
    )
    ids.version!.push(String(version.id))
    for (const a of version.artifacts as Array<{ id: string }>) ids.artifact!.push(a.id)
  }
  // Real packages, so the apt and rpm repository operations have indexes and pool files to serve.
  const linux = await ok(
    fetch(
      '/v1/apps/fuzz-app/versions',
      bearer(admin.token, {
        method: 'POST',
        body: uploadForm(
          { channel: 'stable', arch: 'x64', version: '1.0.0', platform: 'linux', published: 'true' },
          LINUX_PACKAGES,
        ),
      }),
    ),
    'upload of a .deb and an .rpm',
  )
  ids.version!.push(String(linux.id))
  for (const a of linux.artifacts as Array<{ id: string }>) ids.artifact!.push(a.id)
  // A real MSIX (Electron's test package), so the MSIX feed, App Installer file and package have something to serve.
  const msix = await ok(
    fetch(
      '/v1/apps/fuzz-app/versions',
      bearer(admin.token, {
        method: 'POST',
        body: uploadForm({ channel: 'stable', arch: 'x64', version: '0.9.5', platform: 'windows', published: 'true' }, [
          ['Fuzz-0.9.5.msix', MSIX_PACKAGE],
        ]),
      }),
    ),
    'upload of an .msix',
  )
  ids.version!.push(String(msix.id))
  for (const a of msix.artifacts as Array<{ id: string }>) ids.artifact!.push(a.id)
  // Signed metadata (TUF): a root and a targets file naming the MSIX, so every metadata file exists.
  const online = await publicKey(await (await fetch('/v1/apps/fuzz-app/tuf/online-key.json')).text(), 'online key')
  const [rootKey, releaseKey] = [await signingKey(newKeyPem(), 'root'), await signingKey(newKeyPem(), 'release')]
  const root = buildRoot({
    version: 1,
    expires: expiresInDays(365),
    root: { keys: [rootKey], threshold: 1 },
    targets: { keys: [releaseKey], threshold: 1 },
    online,
  })
  signWith(root, [rootKey])
  await ok(fetch('/v1/apps/fuzz-app/tuf/root.json', jsonBody(root.toJSON(), admin.token)), 'TUF root')
  const msixFile = (msix.artifacts as Array<{ id: string; size: number; sha256: string }>)[0]!
  const targets = nextTargets(
    undefined,
    [{ versionId: String(msix.id), artifactId: msixFile.id, size: msixFile.size, sha256: msixFile.sha256 }],
    expiresInDays(30),
  )
  signWith(targets, [releaseKey])
  await ok(fetch('/v1/apps/fuzz-app/tuf/targets.json', jsonBody(targets.toJSON(), admin.token)), 'TUF targets')
  const restricted = await ok(
    fetch(
      '/v1/team/users',
      jsonBody(
        {
          email: 'user@fuzz.test',
          name: 'Restricted',
          password: PASSWORD,
          permissions: {
            apps: {
              upload: { enabled: true, allowed: ['fuzz-app'] },
              edit: { enabled: true, allowed: ['fuzz-app'] },
              download: { enabled: true, allowed: ['fuzz-private'] },
            },
            channels: { create: { enabled: true } },
          },
        },
        admin.token,
      ),
    ),
    'team user',
  )
  ids.id!.push(String(restricted.id), admin.user.id)
  const user = await ok(fetch('/v1/auth/login', jsonBody({ email: 'user@fuzz.test', password: PASSWORD })), 'login')
  const other = await signup(fetch, 'admin@other.test', 'Other')
  const otherChannel = await ok(fetch('/v1/channels', jsonBody({ name: 'stable' }, other.token)), 'other channel')
  await ok(fetch('/v1/apps', jsonBody({ slug: 'other-app', name: 'Other' }, other.token)), 'other app')
  ids.id!.push(String(otherChannel.id), 'chn_doesnotexist')
  ids.version!.push('ver_doesnotexist')
  ids.artifact!.push('art_doesnotexist')
  const rule = await ok(
    fetch('/v1/apps/fuzz-app/rules', jsonBody({ kind: 'pin', cohort: 'acme-corp', range: '1.x' }, admin.token)),
    'rule',
  )

  const semvers = ['0.9.0', '1.0.0', '1.1.0', '1.2.0-beta.1', '2.0.0-rc.1+build.5', '10.0.0']
  const today = new Date().toISOString().slice(0, 10)
  const known = new Map<string, unknown[]>([
    ['app', ['fuzz-app', 'fuzz-private', 'other-app', 'no-such-app']],
    ['slug', ['fuzz-app', 'new-fuzz-app', 'other-app']],
    ['id', ids.id!],
    ['version', [...ids.version!, ...semvers]],
    ['artifact', ids.artifact!],
    ['rule', [String(rule.id), 'rul_doesnotexist']],
    ['cohort', ['acme-corp', 'beta']],
    ['attributes', ['os_version=14.2.0,edition=pro', 'edition=', 'a=b,a=c']],
    ['currentVersion', semvers],
    ['localVersion', semvers],
    ['channel', ['stable', 'beta', 'nightly']],
    ['platform', ['windows', 'darwin', 'linux', 'amiga']],
    ['arch', ['x64', 'arm64', 'm68k']],
    [
      'file',
      [
        'fuzz-1.0.0-full.nupkg',
        'fuzz-1.1.0-full.nupkg',
        'latest.yml',
        'latest-mac.yml',
        'missing.nupkg',
        'InRelease',
        'Release',
        'Release.gpg',
        'Packages',
        'Packages.gz',
        'Packages.xz',
        'repomd.xml',
        'repomd.xml.asc',
        'primary.xml.gz',
        'other.xml.gz',
        ...LINUX_PACKAGES.map(([name]) => name),
        'missing.deb',
        'missing.rpm',
        'Fuzz-0.9.5.msix',
        'missing.msix',
      ],
    ],
    ['binaryArch', ['binary-amd64', 'binary-arm64', 'binary-m68k']],
    // The SHA-256 of no bytes (an architecture's empty index), and one no index has.
    ['hash', ['e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', '0'.repeat(64)]],
    [
      'cursor',
      [
        encodeCursor({ s: 1 }),
        encodeCursor({ v: '1.0.0', s: 2 }),
        encodeCursor({ v: '1.0.0-01', s: 2 }),
        encodeCursor({ s: 'x' }),
        encodeCursor({ s: 1e308 }),
        encodeCursor({ id: '__proto__' }),
        encodeCursor({}),
        'e30',
        'bnVsbA',
        '!!!',
      ],
    ],
    ['X-Ferry-Device-Id', ['device-fuzz-0001', 'device-fuzz-0002']],
    ['x-user-staging-id', ['staging-fuzz-0001']],
    ['deviceId', ['device-fuzz-0001', 'device-fuzz-0002']],
    ['fromVersion', semvers],
    ['email', ['admin@fuzz.test', 'user@fuzz.test', 'new@fuzz.test']],
    ['password', [PASSWORD]],
    ['currentPassword', [PASSWORD]],
    ['from', [today, '2025-01-01']],
    ['to', [today]],
    ['name', ['Fuzz', 'stable', 'x64', 'windows']],
  ])
  return {
    request: async (url, init) => app.request(url, init),
    known,
    invalidated,
    apps: new Set(['fuzz-app', 'fuzz-private', 'other-app']),
    tokens: { admin: admin.token, user: String(user.token), other: other.token },
  }
}

// ---------------------------------------------------------------------------------------------
// Requests built from an operation's contract.

type Identity = 'anonymous' | 'admin' | 'user' | 'other' | 'forged'
type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown; contentType: string }
  | { kind: 'text'; text: string; contentType: string }
  | { kind: 'form'; fields: Array<[string, string]>; files: Array<[string, string]>; damage: Damage | null }
/** A byte-level or structural change to an encoded multipart body; `at` picks the byte or the part. */
type Damage = { at: number; how: (typeof DAMAGE)[number]; byte: number }
const DAMAGE = [
  'truncate',
  'flip',
  'insert',
  'bare-lf',
  'no-blank-line',
  'header-twice',
  'no-disposition',
  'no-name',
  'extended-filename',
] as const

interface FuzzInput {
  /** The request's host: update answers and their cache keys carry it. */
  host: string
  identity: Identity
  forgedAuthorization: string
  signupKey: string
  path: Array<{ value: string; raw: boolean }>
  query: Array<string | undefined>
  extraQuery: string
  headers: Array<string | undefined>
  body: Body
}

/** URLs cannot carry a lone surrogate: it becomes U+FFFD, as URLSearchParams does. */
const wellFormed = (s: string) =>
  s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
const asParam = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)
/** What fetch accepts in a header value: Latin-1 without NUL, CR or LF. */
const headerSafe = (s: string) => s.replace(/[^\t\x20-\x7e\x80-\xff]/g, '').trim()

const RAW_QUERIES = [
  '',
  '',
  '',
  '%',
  '%zz',
  'a=%ff',
  '%C0%80=1',
  'version=1.0.0&version=2.0.0',
  'limit=1&limit=x',
  '&&&',
  '=',
  '%00=%00',
  '__proto__=1',
  'constructor[prototype]=1',
]
const JSON_TYPES = [
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/problem+json',
  'text/plain',
  '',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
]
const RAW_JSON = [
  '',
  '{',
  'null',
  '[]',
  '"x"',
  '1e999',
  '{"a":1,"a":2}',
  '\u0000',
  '{"__proto__":{"admin":true}}',
  deepJson(5000, 'array'),
  deepJson(2000, 'object'),
  `{"name":"${'a'.repeat(1024 * 1024)}"}`,
]
/** Mostly the usual host; sometimes another, or one as long as Node lets a Host header be. */
const hostArbitrary = fc.oneof(
  { arbitrary: fc.constant('ferry.test'), weight: 8 },
  {
    arbitrary: fc.constantFrom('127.0.0.1:8080', '[::1]:1', 'ferry.test:65535', 'xn--fsq.test', 'FERRY.TEST'),
    weight: 1,
  },
  { arbitrary: fc.domain(), weight: 1 },
  { arbitrary: fc.integer({ min: 1000, max: 8000 }).map((n) => `h${'a'.repeat(n)}.test`), weight: 1 },
)
const FILE_NAMES = [
  'Fuzz-3.0.0.exe',
  'fuzz-3.0.0-full.nupkg',
  'Fuzz.app.tar.gz',
  'Fuzz.app.tar.gz.sig',
  'latest.yml',
  'Fuzz-3.0.0.exe.blockmap',
  'Fuzz.msi',
]

/** `validOnly`: parameters that satisfy their schemas (mostly known values), no junk in the query. */
function inputFor(op: ContractOperation, world: World, validOnly = false): fc.Arbitrary<FuzzInput> {
  const schemas = schemaArbitraries(components, (name, schema) => {
    const check = responseValidator(schema)
    return (world.known.get(name) ?? []).filter((v) => check(v))
  })
  const param = (p: ContractOperation['parameters'][number]) =>
    (validOnly
      ? schemas.valid(p.schema, p.name)
      : fc.oneof(
          { arbitrary: schemas.valid(p.schema, p.name), weight: 5 },
          { arbitrary: schemas.invalid(p.schema), weight: 2 },
        )
    ).map(asParam)
  const inPath = op.parameters.filter((p) => p.in === 'path')
  const inQuery = op.parameters.filter((p) => p.in === 'query')
  const inHeader = op.parameters.filter((p) => p.in === 'header')
  return fc.record({
    host: hostArbitrary,
    identity: fc.constantFrom<Identity>('anonymous', 'admin', 'admin', 'user', 'user', 'other', 'forged'),
    forgedAuthorization: fc.oneof(
      hostileString,
      fc.constantFrom(
        `Bearer ${world.tokens.admin.slice(0, -2)}xx`,
        `Bearer ${world.tokens.user}.x`,
        `bearer ${world.tokens.admin}`,
        `Bearer  ${world.tokens.admin}`,
        `Basic ${btoa('admin@fuzz.test:' + PASSWORD)}`,
        'Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJ1c3IifQ.',
      ),
    ),
    signupKey: fc.oneof({ arbitrary: fc.constant(SIGNUP_KEY), weight: 3 }, { arbitrary: hostileString, weight: 1 }),
    path: fc.tuple(
      ...inPath.map((p) => fc.record({ value: param(p), raw: validOnly ? fc.constant(false) : fc.boolean() })),
    ),
    query: fc.tuple(...inQuery.map((p) => fc.option(param(p), { nil: undefined, freq: p.required ? 12 : 2 }))),
    extraQuery: validOnly ? fc.constant('') : fc.constantFrom(...RAW_QUERIES),
    headers: fc.tuple(...inHeader.map((p) => fc.option(param(p), { nil: undefined, freq: 2 }))),
    body: bodyFor(op, schemas),
  })
}

function bodyFor(op: ContractOperation, schemas: ReturnType<typeof schemaArbitraries>): fc.Arbitrary<Body> {
  const body = op.body
  if (!body) return fc.constant({ kind: 'none' })
  const rawJson = fc.record({
    kind: fc.constant('text' as const),
    text: fc.constantFrom(...RAW_JSON),
    contentType: fc.constant('application/json'),
  })
  if (body.contentType === 'application/json') {
    return fc.oneof(
      {
        arbitrary: fc.record({
          kind: fc.constant('json' as const),
          value: schemas.valid(body.schema),
          contentType: fc.constant('application/json'),
        }),
        weight: 6,
      },
      {
        arbitrary: fc.record({
          kind: fc.constant('json' as const),
          value: schemas.invalid(body.schema),
          contentType: fc.constant('application/json'),
        }),
        weight: 3,
      },
      { arbitrary: rawJson, weight: 1 },
      {
        arbitrary: fc.record({
          kind: fc.constant('json' as const),
          value: schemas.valid(body.schema),
          contentType: fc.constantFrom(...JSON_TYPES),
        }),
        weight: 1,
      },
    )
  }
  // multipart/form-data: every member a text field, `files` the files.
  const properties = (components[String((body.schema.$ref as string | undefined)?.split('/').pop())]?.properties ??
    body.schema.properties ??
    {}) as Record<string, JsonSchema>
  const fieldNames = Object.keys(properties).filter((n) => n !== 'files')
  const field = (name: string) =>
    fc.option(
      fc
        .oneof(
          { arbitrary: schemas.valid(properties[name]!, name), weight: 5 },
          { arbitrary: schemas.invalid(properties[name]!), weight: 1 },
        )
        .map(asParam),
      { nil: undefined, freq: 8 },
    )
  const form = fc.record({
    kind: fc.constant('form' as const),
    fields: fc
      .tuple(...fieldNames.map(field))
      .map((values) =>
        values.flatMap((v, i): Array<[string, string]> => (v === undefined ? [] : [[fieldNames[i]!, v]])),
      ),
    files: fc.array(
      fc.tuple(
        fc.oneof({ arbitrary: fc.constantFrom(...FILE_NAMES), weight: 4 }, { arbitrary: hostileString, weight: 1 }),
        fc.string({ maxLength: 64 }),
      ),
      { maxLength: 3 },
    ),
    damage: fc.option(
      fc.record({ at: fc.nat(), how: fc.constantFrom(...DAMAGE), byte: fc.integer({ min: 0, max: 255 }) }),
      { nil: null, freq: 3 },
    ),
  })
  return fc.oneof({ arbitrary: form, weight: 8 }, { arbitrary: rawJson, weight: 1 })
}

async function encodeBody(body: Body): Promise<{ body?: BodyInit; contentType?: string }> {
  if (body.kind === 'none') return {}
  if (body.kind === 'text') return { body: body.text, contentType: body.contentType }
  if (body.kind === 'json') return { body: JSON.stringify(body.value) ?? 'null', contentType: body.contentType }
  const form = new FormData()
  for (const [name, value] of body.fields) form.append(name, value)
  for (const [name, data] of body.files) form.append('files', new File([data], name))
  const encoded = new Response(form)
  const contentType = encoded.headers.get('content-type') ?? ''
  const bytes = new Uint8Array(await encoded.arrayBuffer())
  return { body: body.damage ? damaged(bytes, body.damage) : bytes, contentType }
}

function damaged(bytes: Uint8Array<ArrayBuffer>, d: Damage): Uint8Array<ArrayBuffer> {
  const at = d.at % Math.max(1, bytes.length)
  if (d.how === 'truncate') return bytes.slice(0, at)
  if (d.how === 'flip') return Uint8Array.from(bytes, (b, i) => (i === at ? d.byte : b))
  if (d.how === 'insert') return Uint8Array.from([...bytes.slice(0, at), d.byte, ...bytes.slice(at)])
  // Structural changes work on the text (Latin-1 keeps every byte) of the `at`-th part.
  const text = new TextDecoder('latin1').decode(bytes)
  const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0))
  if (d.how === 'bare-lf') return latin1(text.replace(/\r\n/g, '\n'))
  let seen = 0
  const nth = (pattern: RegExp, change: (match: string) => string) => {
    const count = text.match(pattern)?.length ?? 0
    const target = count ? d.at % count : -1
    return latin1(text.replace(pattern, (m) => (seen++ === target ? change(m) : m)))
  }
  if (d.how === 'no-blank-line') return nth(/\r\n\r\n/g, () => '\r\n')
  if (d.how === 'header-twice') return nth(/Content-(?:Disposition|Type): [^\r]*\r\n/g, (line) => line + line)
  if (d.how === 'no-disposition') return nth(/Content-Disposition: [^\r]*\r\n/g, () => '')
  if (d.how === 'no-name') return nth(/; name="[^"]*"/g, () => '')
  return nth(/filename="/g, () => `filename*=UTF-8''%${d.byte.toString(16).toUpperCase()}%; x="`)
}

async function requestOf(
  op: ContractOperation,
  world: World,
  input: FuzzInput,
): Promise<{ url: string; init: RequestInit }> {
  let i = 0
  const path = op.path.replace(/\{[^}]+\}/g, () => {
    const { value, raw } = input.path[i++]!
    return raw && /^[\w.~%-]*$/.test(value) ? value : encodeURIComponent(wellFormed(value))
  })
  const query = new URLSearchParams()
  op.parameters
    .filter((p) => p.in === 'query')
    .forEach((p, j) => {
      const v = input.query[j]
      if (v !== undefined) query.append(p.name, v)
    })
  const search = [query.toString(), input.extraQuery].filter(Boolean).join('&')
  const headers: Record<string, string> = {}
  op.parameters
    .filter((p) => p.in === 'header')
    .forEach((p, j) => {
      const v = input.headers[j]
      if (v !== undefined && headerSafe(v)) headers[p.name] = headerSafe(v)
    })
  if (input.identity === 'forged') {
    if (headerSafe(input.forgedAuthorization)) headers.authorization = headerSafe(input.forgedAuthorization)
  } else if (input.identity !== 'anonymous') {
    headers.authorization = `Bearer ${world.tokens[input.identity]}`
  }
  if (op.permission === 'signupKey' && headerSafe(input.signupKey))
    headers['x-ferry-signup-key'] = headerSafe(input.signupKey)
  const { body, contentType } = await encodeBody(input.body)
  if (contentType) headers['content-type'] = contentType
  return {
    url: `http://${input.host}${path}${search ? `?${search}` : ''}`,
    init: { method: op.method.toUpperCase(), headers, ...(body !== undefined ? { body } : {}) },
  }
}

// ---------------------------------------------------------------------------------------------
// What every answer must be.

const RFC9457_STRINGS = ['type', 'title', 'detail', 'instance'] as const

function checkAnswer(status: number, contentType: string | null, text: string): string | undefined {
  if (status >= 500) return `answered ${status}`
  if (status < 400) return undefined
  if (contentType !== 'application/problem+json')
    return `a ${status} with content type ${contentType}, not application/problem+json`
  let problem: Record<string, unknown>
  try {
    problem = JSON.parse(text) as Record<string, unknown>
  } catch {
    return `a ${status} whose body is not JSON`
  }
  for (const member of RFC9457_STRINGS)
    if (typeof problem[member] !== 'string') return `a ${status} problem without a string ${member}`
  if (problem.status !== status) return `a ${status} problem whose status member is ${String(problem.status)}`
  if (status === 400 && String(problem.type).endsWith('#validation')) {
    const errors = problem.errors
    if (!Array.isArray(errors) || errors.length === 0) return 'a validation problem without errors'
    for (const e of errors as Array<Record<string, unknown>>) {
      if (typeof e.message !== 'string') return 'a validation error without a message'
      if (typeof e.pointer !== 'string' && typeof e.field !== 'string')
        return `a validation error naming no field: ${JSON.stringify(e)}`
    }
  }
  return undefined
}

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${REQUEST_TIMEOUT_MS} ms`)),
      REQUEST_TIMEOUT_MS,
    )
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

interface Tally {
  inputs: number
  statuses: Map<number, number>
  failures: string[]
}

/** Sends one fuzzed input; returns what is wrong with the answer, or `undefined`. */
async function send(op: ContractOperation, world: World, input: FuzzInput, tally: Tally): Promise<string | undefined> {
  const { url, init } = await requestOf(op, world, input)
  const what = `${op.operationId}: ${init.method} ${url.slice(0, 300)}`
  const res = await withTimeout(world.request(url, init), what)
  const text = await withTimeout(res.text(), `${what} (body)`)
  tally.inputs++
  tally.statuses.set(res.status, (tally.statuses.get(res.status) ?? 0) + 1)
  if (op.operationId === 'createApp' && res.status === 201)
    world.apps.add(String((JSON.parse(text) as { slug: string }).slug))
  const wrong = checkAnswer(res.status, res.headers.get('content-type'), text)
  return wrong && `${what} as ${input.identity}: ${wrong}: ${text.slice(0, 300)}`
}

function summary(tally: Tally): string {
  const statuses = [...tally.statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ')
  return `${tally.inputs} inputs (seed ${SEED}, ${RUNS} runs per operation): ${statuses}`
}

test(
  `every operation, fuzzed from its schemas: no 5xx, no hang, every 4xx a problem naming its fields (seed ${SEED})`,
  { timeout: 600_000 },
  async (t) => {
    const tally: Tally = { inputs: 0, statuses: new Map(), failures: [] }
    for (const [index, op] of CONTRACT.entries()) {
      const world = await createWorld()
      try {
        await fc.assert(
          fc.asyncProperty(inputFor(op, world), async (input) => {
            const wrong = await send(op, world, input, tally)
            if (!wrong) return
            if (!COLLECT) assert.fail(wrong)
            tally.failures.push(wrong)
          }),
          { seed: SEED + index, numRuns: RUNS },
        )
      } catch (error) {
        throw new Error(
          `fuzzing ${op.operationId} failed; reproduce with FUZZ_SEED=${SEED} (this operation runs with seed ${SEED + index}):\n${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        )
      }
    }
    t.diagnostic(`${CONTRACT.length} operations, ${summary(tally)}`)
    if (tally.failures.length)
      assert.fail(`${tally.failures.length} bad answers:\n${tally.failures.slice(0, 40).join('\n')}`)
    assert.equal(tally.statuses.get(500) ?? 0, 0)
  },
)

test(`/mcp, fuzzed as a hostile agent would: no 5xx, every refusal a problem, nothing written (seed ${SEED})`, async () => {
  const world = await createWorld()
  const listApps = async () =>
    (await (await world.request('http://ferry.test/v1/apps', bearer(world.tokens.admin))).text()).length
  const before = await listApps()
  const method = fc.constantFrom('initialize', 'tools/list', 'tools/call', 'ping', 'resources/list', 'prompts/get')
  const toolName = fc.oneof(
    fc.constantFrom('createApp', 'deleteApp', 'updateApp', 'search_docs', 'read_page', 'describe_operation'),
    hostileString,
  )
  const wellFormed = fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.integer({ min: 0 }),
    method,
    params: fc.record({ name: toolName, arguments: fc.dictionary(fc.string(), fc.jsonValue()) }),
  })
  const message = fc.oneof(
    { arbitrary: wellFormed, weight: 3 },
    fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), fc.jsonValue()),
        id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.jsonValue()),
        method: fc.oneof(method, hostileString),
        params: fc.oneof(
          fc.record({ name: toolName, arguments: fc.dictionary(fc.string(), fc.jsonValue()) }, { requiredKeys: [] }),
          fc.jsonValue(),
        ),
      },
      { requiredKeys: ['jsonrpc'] },
    ),
    fc.array(fc.jsonValue(), { maxLength: 3 }),
    fc.jsonValue(),
  )
  const request = fc.record({
    message,
    token: fc.constantFrom<'admin' | 'user' | 'other' | undefined>('admin', 'user', 'other', undefined),
    origin: fc.option(fc.constantFrom('http://ferry.test', 'http://evil.example', 'null'), { nil: undefined }),
    session: fc.option(fc.string({ maxLength: 40 }), { nil: undefined, freq: 5 }),
  })
  const failures: string[] = []
  const statuses = new Map<number, number>()
  await fc.assert(
    fc.asyncProperty(request, async ({ message: body, token, origin, session }) => {
      const headers: Record<string, string> = {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${world.tokens[token]}` } : {}),
        ...(origin ? { origin } : {}),
        ...(session !== undefined && headerSafe(session) ? { 'mcp-session-id': headerSafe(session) } : {}),
      }
      const res = await withTimeout(
        world.request('http://ferry.test/mcp', { method: 'POST', headers, body: JSON.stringify(body) }),
        '/mcp',
      )
      const text = await res.text()
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
      const wrong = checkAnswer(res.status, res.headers.get('content-type'), text)
      if (wrong) failures.push(`${JSON.stringify(body).slice(0, 200)}: ${wrong}: ${text.slice(0, 200)}`)
    }),
    { seed: SEED, numRuns: RUNS * 4 },
  )
  assert.deepEqual(failures.slice(0, 10), [])
  assert.equal(await listApps(), before, 'no app was created, changed or deleted')
  assert.ok((statuses.get(200) ?? 0) > 0 && (statuses.get(400) ?? 0) > 0, JSON.stringify([...statuses]))
})

/** `gc()` even when node was started without --expose-gc. */
function exposeGc(): () => void {
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}

async function heapAfterGc(gc: () => void): Promise<number> {
  gc()
  await new Promise((resolve) => setImmediate(resolve))
  gc()
  return process.memoryUsage().heapUsed
}

test(
  'a long mixed stream, then a flood of update checks, keep what one app holds bounded',
  { timeout: 600_000 },
  async (t) => {
    const gc = exposeGc()
    const world = await createWorld()
    const tally: Tally = { inputs: 0, statuses: new Map(), failures: [] }
    // Only the first failures are kept: their messages hold slices of long URLs, and V8 keeps
    // the whole string a slice was cut from, which would show up as heap growth.
    const fail = (wrong: string) => {
      if (tally.failures.length < 20) tally.failures.push(wrong)
    }
    const sendAll = async (sample: Array<{ op: ContractOperation; input: FuzzInput }>) => {
      for (const { op, input } of sample) {
        const wrong = await send(op, world, input, tally)
        if (wrong) fail(wrong)
      }
    }
    const mixed = fc.oneof(...CONTRACT.map((op) => inputFor(op, world).map((input) => ({ op, input }))))
    const rounds = Math.max(4, Math.ceil(RUNS / 15))
    for (let round = 0; round < rounds; round++)
      await sendAll(fc.sample(mixed, { seed: SEED + 1000 + round, numRuns: 250 }))
    assert.deepEqual(tally.failures.slice(0, 20), [])
    // The answer cache keeps a generation per invalidated app: only real apps may get one, or any
    // client could grow it (and empty every app's cache) with writes to made-up slugs.
    const strangers = [...world.invalidated].filter((app) => !world.apps.has(app))
    assert.deepEqual(strangers.slice(0, 10), [], `${strangers.length} invalidated apps that never existed`)

    // Anonymous update checks of existing targets from ever new hosts. Each answer is a
    // new cache entry holding download URLs on that host (as long as Node lets a Host header be);
    // only the cache's size bound keeps memory flat. (Devices and versions come from small sets:
    // the telemetry buffer's bound is checked in telemetry-bounds.test.ts.)
    const flood = fc.record({
      path: fc.constantFrom(
        '/v1/apps/fuzz-app/update?version={v}&platform=windows&arch=x64',
        '/v1/apps/fuzz-app/update?version={v}&platform=darwin&arch=x64&format=electron-updater',
        '/v1/apps/fuzz-app/squirrel/stable/x64/RELEASES?localVersion={v}',
        '/v1/apps/fuzz-app/squirrel-mac/stable/x64?version={v}',
        '/v1/apps/fuzz-app/electron-updater/stable/windows/x64/{v}/latest.yml',
        '/v1/apps/fuzz-app/tauri/stable/darwin/x86_64/{v}',
      ),
      version: fc.constantFrom('0.9.0', '0.9.1', '1.0.0', '1.0.1-rc.1'),
      device: fc.constantFrom('device-flood-0001', 'device-flood-0002'),
      host: fc
        .tuple(fc.integer({ min: 6000, max: 8000 }), fc.stringMatching(/^[a-z0-9]{6}$/))
        .map(([n, id]) => `f${id}${'a'.repeat(n)}.test`),
    })
    const floods = [0, 1, 2, 3, 4].map((round) => fc.sample(flood, { seed: SEED + 2000 + round, numRuns: 250 }))
    // The flood, against a fresh world (the mixed stream may have deleted the apps), whose answer
    // cache gets 4 MiB so that what it may legitimately keep is far below the bound. Its hosts are
    // all allowed (FERRY_ALLOWED_HOSTS): any other would get a 421 and fill nothing.
    const flooded = await createWorld(4 * 2 ** 20, ['ferry.test', ...floods.flat().map((r) => r.host)])
    const floodOnce = async (r: { path: string; version: string; device: string; host: string }) => {
      const url = `http://${r.host}${r.path.replace('{v}', r.version)}`
      const res = await withTimeout(
        flooded.request(url, { headers: { 'x-ferry-device-id': r.device } }),
        url.slice(0, 200),
      )
      const text = await res.text()
      tally.inputs++
      tally.statuses.set(res.status, (tally.statuses.get(res.status) ?? 0) + 1)
      const wrong =
        checkAnswer(res.status, res.headers.get('content-type'), text) ??
        (res.status >= 300 ? `flood check answered ${res.status}` : undefined)
      if (wrong) fail(`${url.slice(0, 200)}: ${wrong}: ${text.slice(0, 200)}`)
    }
    const heap: number[] = []
    for (const round of floods) {
      for (const r of round) await floodOnce(r)
      heap.push(await heapAfterGc(gc))
    }
    t.diagnostic(
      `mixed: ${rounds} rounds of 250, flood: 5 rounds of 250; ${summary(tally)}; heap after each flood round (MiB): ${heap.map((h) => (h / 2 ** 20).toFixed(1)).join(' ')}`,
    )
    assert.deepEqual(tally.failures.slice(0, 20), [])
    // The first flood round fills the 4 MiB cache; four more must not grow the heap by 6 MiB
    // (unbounded, they keep 1000 more answers of 7-30 KB: about 10 MiB).
    const growth = heap[heap.length - 1]! - heap[0]!
    assert.ok(growth < 6 * 2 ** 20, `heap grew by ${(growth / 2 ** 20).toFixed(1)} MiB during the flood`)
  },
)
