/** Bad input and crashes: clear 4xx problems, and nothing half-stored. */
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { openPostgresDb } from '../../server/storage/drivers/postgres-node.ts'
import { openNodeDb } from '../../server/storage/drivers/sqlite-node.ts'
import {
  SIGNUP_KEY,
  bearer,
  blobKeys,
  unfinishedWrites,
  eventually,
  expectProblem,
  httpFetch,
  jsonBody,
  memoryApp,
  testDatabaseUrl,
  uploadForm,
  type Fetch,
  prepareUploadTeam,
  halfThenWait,
  withUploadTeam,
  killHard,
  startChild,
} from './helpers.ts'

const FIELDS = { version: '1.0.0', channel: 'stable', platform: 'windows', arch: 'x64' }

const prepare = (f: Fetch) => prepareUploadTeam(f, 'fault-app')

async function nothingStored(f: Fetch, token: string, blobs: () => Promise<string[]>) {
  const versions = (await (await f('/v1/apps/fault-app/versions', bearer(token))).json()) as { items: unknown[] }
  assert.equal(versions.items.length, 0, 'no version row')
  assert.deepEqual(await blobs(), [], 'no blob')
}

const LIMIT = 4096
const team = withUploadTeam('fault-app', LIMIT)
const { f } = team
const blobFiles = () => blobKeys(team.server)

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  f('/v1/apps/fault-app/versions', bearer(team.token, { method: 'POST', body, headers }))

test('path-like file names are refused and nothing is stored', async () => {
  for (const name of [
    '../evil.exe',
    'dir/evil.exe',
    '..\\evil.exe',
    '.hidden.exe',
    'C:\\evil.exe',
    'evil.iso',
    'a"b.exe',
  ]) {
    const form = uploadForm(FIELDS, [[name, 'x']])
    const problem = await expectProblem(await post(form), 400, 'validation', 'files')
    assert.ok(
      problem.errors?.some((e) => e.field === 'files'),
      name,
    )
  }
  await nothingStored(f, team.token, blobFiles)
})

test('an upload over the limit is 413 and nothing is stored (declared length and chunked)', async () => {
  const big = new Uint8Array(LIMIT * 2)
  await expectProblem(await post(uploadForm(FIELDS, [['big.exe', big]])), 413, 'payload-too-large')
  await nothingStored(f, team.token, blobFiles)
  // Without Content-Length the server counts bytes as they arrive.
  const form = uploadForm(FIELDS, [['big.exe', big]])
  const encoded = new Response(form)
  const stream = encoded.body as ReadableStream<Uint8Array>
  const res = await fetch(`${team.server.url}/v1/apps/fault-app/versions`, {
    method: 'POST',
    body: stream,
    duplex: 'half',
    headers: { authorization: `Bearer ${team.token}`, 'content-type': encoded.headers.get('content-type') ?? '' },
  } as RequestInit)
  await expectProblem(res, 413, 'payload-too-large')
  await nothingStored(f, team.token, blobFiles)
  // Just under the limit works.
  const ok = await post(uploadForm(FIELDS, [['small.exe', new Uint8Array(LIMIT / 2)]]))
  assert.equal(ok.status, 201, await ok.text())
  const { id } = await (
    await f('/v1/apps/fault-app/versions', bearer(team.token))
  )
    .json()
    .then((b: { items: Array<{ id: string }> }) => b.items[0] ?? { id: '' })
  assert.equal((await f(`/v1/apps/fault-app/versions/${id}`, bearer(team.token, { method: 'DELETE' }))).status, 204)
})

test('malformed multipart, wrong content type, missing fields', async () => {
  await expectProblem(
    await post('--nope\r\ngarbage', { 'content-type': 'multipart/form-data; boundary=xyz' }),
    400,
    'validation',
    'body',
  )
  await expectProblem(
    await post(JSON.stringify(FIELDS), { 'content-type': 'application/json' }),
    400,
    'validation',
    'Content-Type',
  )
  await expectProblem(await post('x', { 'content-type': 'multipart/form-data' }), 400, 'validation', 'Content-Type')
  await expectProblem(await post(uploadForm(FIELDS, [])), 400, 'validation', 'files')
  await expectProblem(
    await post(uploadForm({ ...FIELDS, version: 'v1' }, [['a.exe', 'x']])),
    400,
    'validation',
    'version',
  )
  await expectProblem(
    await post(uploadForm({ ...FIELDS, rolloutPercentage: '150' }, [['a.exe', 'x']])),
    400,
    'validation',
    'rolloutPercentage',
  )
  await expectProblem(
    await post(uploadForm({ ...FIELDS, channel: 'nightly' }, [['a.exe', 'x']])),
    400,
    'validation',
    'channel',
  )
  const form = uploadForm(FIELDS, [['a.exe', 'x']])
  form.append('files', 'text instead of a file')
  await expectProblem(await post(form), 400, 'validation', 'files')
  await expectProblem(
    await post(
      uploadForm(FIELDS, [
        ['a.exe', 'x'],
        ['a.exe', 'y'],
      ]),
    ),
    400,
    'validation',
    'files',
  )
  // A misspelt field would otherwise upload a draft without a word.
  const typo = await expectProblem(
    await post(uploadForm({ ...FIELDS, publised: 'true' }, [['a.exe', 'x']])),
    400,
    'validation',
    'publised',
  )
  assert.match(
    typo.errors?.find((e) => e.field === 'publised')?.message ?? '',
    /not a member of this request; check its spelling/,
  )
  await nothingStored(f, team.token, blobFiles)
})

test('JSON bodies: bad JSON, wrong content type, wrong types name the member', async () => {
  const send = (body: string, type = 'application/json') =>
    f('/v1/apps', { method: 'POST', body, headers: { authorization: `Bearer ${team.token}`, 'content-type': type } })
  await expectProblem(await send('{"slug": '), 400, 'validation', '/')
  await expectProblem(await send('{"slug":"ok-app","name":"x"}', 'text/plain'), 400, 'validation', 'Content-Type')
  await expectProblem(await send('{"slug":"ok-app","name":5}'), 400, 'validation', '/name')
  await expectProblem(await send('{"name":"x"}'), 400, 'validation', '/slug')
  await expectProblem(await send('[]'), 400, 'validation', '/')
  await expectProblem(await send('{"slug":"ok-app","name":"x","privat":true}'), 400, 'validation', '/privat')
  await expectProblem(await send('{"slug":"ok-app","name":"x","a/b~c":1}'), 400, 'validation', '/a~1b~0c')
  const list = (await (await f('/v1/apps', bearer(team.token))).json()) as { items: Array<{ slug: string }> }
  assert.deepEqual(
    list.items.map((a) => a.slug),
    ['fault-app'],
  )
})

test('in-process app: same limits without a real socket', async () => {
  const m = await memoryApp({ maxUploadBytes: 1000 })
  const t = await prepare(m.fetch)
  const res = await m.fetch(
    '/v1/apps/fault-app/versions',
    bearer(t, { method: 'POST', body: uploadForm(FIELDS, [['big.exe', new Uint8Array(5000)]]) }),
  )
  await expectProblem(res, 413, 'payload-too-large')
  await nothingStored(m.fetch, t, async () => (await m.blobs.list()).map((b) => b.key))
})

test('a blob store that fails to delete: the delete still succeeds, the answer changes, the file is left for the sweep', async () => {
  const m = await memoryApp()
  const t = await prepare(m.fetch)
  const upload = async (version: string) => {
    const res = await m.fetch(
      '/v1/apps/fault-app/versions',
      bearer(t, {
        method: 'POST',
        body: uploadForm({ ...FIELDS, version, published: 'true' }, [[`app-${version}.exe`, version]]),
      }),
    )
    assert.equal(res.status, 201, await res.clone().text())
    return (await res.json()) as { id: string }
  }
  await upload('1.0.0')
  const newer = await upload('1.1.0')
  const offered = async () => {
    const res = await m.fetch('/v1/apps/fault-app/update?version=1.0.0&platform=windows&arch=x64&channel=stable')
    return res.status === 204 ? null : ((await res.json()) as { version: string }).version
  }
  assert.equal(await offered(), '1.1.0')
  const stored = (await m.blobs.list()).map((b) => b.key)
  m.blobs.delete = async () => {
    throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
  }
  const res = await m.fetch(`/v1/apps/fault-app/versions/${newer.id}`, bearer(t, { method: 'DELETE' }))
  assert.equal(res.status, 204, `the rows are deleted, so the delete succeeded: ${await res.clone().text()}`)
  assert.equal(await offered(), null, 'the cached answer offering the deleted version is gone')
  const versions = (await (await m.fetch('/v1/apps/fault-app/versions', bearer(t))).json()) as {
    items: Array<{ version: string }>
  }
  assert.deepEqual(
    versions.items.map((v) => v.version),
    ['1.0.0'],
  )
  assert.deepEqual(
    (await m.blobs.list()).map((b) => b.key),
    stored,
    'the file stays until the orphan sweep',
  )
})

test('a client that goes away mid-upload leaves no file and no version', async () => {
  const abort = new AbortController()
  const upload = await halfThenWait(
    uploadForm(FIELDS, [['gone.exe', new Uint8Array(LIMIT - 1024).fill(9)]]),
    new Promise(() => undefined),
  )
  const pending = fetch(`${team.server.url}/v1/apps/fault-app/versions`, upload.init(team.token, abort.signal)).catch(
    (error: unknown) => error,
  )
  await upload.halfSent()
  // On disk the write has begun (its temp file exists) before the client goes; S3 buffers a file
  // this small in memory (one PUT at commit), so there is nothing to see there.
  if (team.server.blobLocation.kind === 'fs')
    await eventually(async () => (await unfinishedWrites(team.server)).length > 0, 'the upload reaches the disk')
  abort.abort()
  assert.ok((await pending) instanceof Error)
  // The server notices the closed connection asynchronously.
  await eventually(
    async () => (await unfinishedWrites(team.server)).length === 0,
    'the temp file or multipart upload is removed',
  )
  await nothingStored(f, team.token, blobFiles)
  assert.equal((await f('/v1/health')).status, 200, 'the server carries on')
})

test('text fields: sent twice, or sent as a file, are named', async () => {
  const twice = uploadForm(FIELDS, [['a.exe', 'x']])
  twice.append('version', '2.0.0')
  const problem = await expectProblem(await post(twice), 400, 'validation', 'version')
  assert.match(problem.errors?.find((e) => e.field === 'version')?.message ?? '', /sent 2 times/)
  const asFile = uploadForm({ channel: 'stable', platform: 'windows', arch: 'x64' }, [['a.exe', 'x']])
  asFile.append('version', new Blob(['1.0.0']), 'version.txt')
  await expectProblem(await post(asFile), 400, 'validation', 'version')
  await nothingStored(f, team.token, blobFiles)
})

test('a Tauri signature without its bundle is refused, naming both files', async () => {
  const problem = await expectProblem(
    await post(
      uploadForm(FIELDS, [
        ['App.msi', 'x'],
        ['App.app.tar.gz.sig', 'sig'],
      ]),
    ),
    400,
    'validation',
    'files',
  )
  assert.match(
    problem.errors?.find((e) => e.field === 'files')?.message ?? '',
    /"App\.app\.tar\.gz\.sig" has no bundle "App\.app\.tar\.gz"/,
  )
  await nothingStored(f, team.token, blobFiles)
})

test('JSON bodies over 1 MiB are 413, declared or chunked, and nothing is created', async () => {
  const big = JSON.stringify({ slug: 'huge-app', name: 'x'.repeat(1024 * 1024) })
  await expectProblem(await f('/v1/apps', jsonBody(JSON.parse(big), team.token)), 413, 'payload-too-large')
  const bytes = new TextEncoder().encode(big)
  const chunked = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.byteLength; i += 64 * 1024) controller.enqueue(bytes.subarray(i, i + 64 * 1024))
      controller.close()
    },
  })
  const res = await fetch(`${team.server.url}/v1/apps`, {
    method: 'POST',
    body: chunked,
    duplex: 'half',
    headers: { authorization: `Bearer ${team.token}`, 'content-type': 'application/json' },
  } as RequestInit)
  const problem = await expectProblem(res, 413, 'payload-too-large')
  assert.match(problem.detail, /JSON bodies are limited to 1048576 bytes/)
  const list = (await (await f('/v1/apps', bearer(team.token))).json()) as { items: Array<{ slug: string }> }
  assert.deepEqual(
    list.items.map((a) => a.slug),
    ['fault-app'],
  )
})

test(
  'SIGKILL during an upload: after restart no partial artifact, metadata consistent',
  { timeout: 30_000 },
  async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ferry-crash-'))
    const databaseUrl = await testDatabaseUrl()
    try {
      let { child, url } = await startChild(dataDir, databaseUrl)
      const cf = httpFetch(url)
      const t = await prepare(cf)
      // One complete upload first: it must survive the crash intact.
      const done = await cf(
        '/v1/apps/fault-app/versions',
        bearer(t, { method: 'POST', body: uploadForm(FIELDS, [['kept.exe', new Uint8Array(10_000).fill(7)]]) }),
      )
      assert.equal(done.status, 201, await done.clone().text())

      // Now a large upload whose body stops half-way; the server is killed while reading it.
      const upload = await halfThenWait(
        uploadForm({ ...FIELDS, version: '2.0.0' }, [['lost.exe', new Uint8Array(4 * 1024 * 1024).fill(1)]]),
        new Promise(() => undefined),
      )
      const pending = fetch(`${url}/v1/apps/fault-app/versions`, upload.init(t)).catch((error: unknown) => error)
      await upload.halfSent()
      await killHard(child)
      assert.ok((await pending) instanceof Error, 'the client saw the connection drop')
      // A file whose upload committed its blob but died before the metadata transaction, longer
      // ago than the orphan sweep's minimum age; and a young one another instance may still record.
      await writeFile(join(dataDir, 'blobs', 'art_orphanedByCrash'), 'never recorded')
      const twoHoursAgo = new Date(Date.now() - 2 * 3600_000)
      await utimes(join(dataDir, 'blobs', 'art_orphanedByCrash'), twoHoursAgo, twoHoursAgo)
      await writeFile(join(dataDir, 'blobs', 'art_youngUnrecorded'), 'maybe in flight elsewhere')
      // The killed upload's temp file, aged past the threshold, and one another instance is still writing.
      for (const name of await readdir(join(dataDir, 'blobs', '.tmp')))
        await utimes(join(dataDir, 'blobs', '.tmp', name), twoHoursAgo, twoHoursAgo)
      await writeFile(join(dataDir, 'blobs', '.tmp', 'art_inFlight.1.1'), 'still being written')

      ;({ child, url } = await startChild(dataDir, databaseUrl))
      try {
        const rf = httpFetch(url)
        const login = await rf('/v1/whoami', bearer(t))
        assert.equal(login.status, 200, 'tokens survive the restart (persisted secret)')
        const versions = (await (await rf('/v1/apps/fault-app/versions', bearer(t))).json()) as {
          items: Array<{ version: string; artifacts: Array<{ downloadUrl: string; size: number }> }>
        }
        assert.deepEqual(
          versions.items.map((v) => v.version),
          ['1.0.0'],
          'only the complete upload exists',
        )
        const art = versions.items[0]?.artifacts[0]
        const dl = await fetch(art?.downloadUrl ?? '')
        assert.equal(dl.status, 200, await dl.clone().text())
        assert.equal((await dl.arrayBuffer()).byteLength, 10_000)
        assert.deepEqual(
          await readdir(join(dataDir, 'blobs', '.tmp')),
          ['art_inFlight.1.1'],
          'the dead temp file is removed, the young one kept',
        )
      } finally {
        child.kill('SIGTERM')
        await new Promise((r) => child.once('exit', r))
      }
      // Every artifact row has its blob and every blob has its row.
      const db = databaseUrl
        ? await openPostgresDb(databaseUrl, { allowExitOnIdle: true })
        : await openNodeDb(join(dataDir, 'ferry.db'))
      const keys = (await db.selectFrom('artifacts').select('blob_key').orderBy('blob_key').execute()).map(
        (r) => r.blob_key,
      )
      await db.destroy()
      const files = (await readdir(join(dataDir, 'blobs')))
        .filter((n) => n !== '.tmp' && n !== 'art_youngUnrecorded')
        .sort()
      assert.deepEqual(files, keys)
      assert.ok(
        (await readdir(join(dataDir, 'blobs'))).includes('art_youngUnrecorded'),
        'a blob younger than the minimum age is kept',
      )
      assert.equal(keys.length, 1)
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  },
)

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net')
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** The real entry (`npm run server` runs this file), configured through the environment. */
interface Entry {
  child: ChildProcess
  url: string
  logs: string[]
  logged(msg: string): Promise<void>
}

async function startEntry(dataDir: string): Promise<Entry> {
  const entry = join(import.meta.dirname, '..', '..', 'server', 'runtime', 'node.ts')
  const env = {
    ...process.env,
    FERRY_PORT: String(await freePort()),
    FERRY_DATA_DIR: dataDir,
    FERRY_SIGNUP_KEY: SIGNUP_KEY,
    FERRY_LOG_LEVEL: 'info',
  }
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { stdio: ['ignore', 'pipe', 'inherit'], env })
  const logs: string[] = []
  const waiting: Array<{ msg: string; done: () => void }> = []
  const messageOf = (line: string) => (JSON.parse(line) as { msg: string }).msg
  const logged = (msg: string) =>
    logs.some((l) => messageOf(l) === msg)
      ? Promise.resolve()
      : new Promise<void>((done) => waiting.push({ msg, done }))
  return new Promise((resolve, reject) => {
    let buffer = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString()
      const lines = buffer.split('\n')
      buffer = lines.pop() ?? ''
      for (const line of lines) {
        logs.push(line)
        const entryLine = JSON.parse(line) as { msg: string; url?: string }
        for (const w of waiting.filter((w) => w.msg === entryLine.msg)) w.done()
        if (entryLine.msg === 'listening' && entryLine.url) resolve({ child, url: entryLine.url, logs, logged })
      }
    })
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}`)))
  })
}

test('SIGTERM lets an upload in flight finish, refuses new connections, exits 0', { timeout: 30_000 }, async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'ferry-term-'))
  try {
    const { child, url, logs, logged } = await startEntry(dataDir)
    const t = await prepare(httpFetch(url))
    let release: () => void = () => undefined
    const upload = await halfThenWait(
      uploadForm({ ...FIELDS, published: 'true' }, [['late.exe', new Uint8Array(2 * 1024 * 1024).fill(3)]]),
      new Promise<void>((r) => {
        release = r
      }),
    )
    const pending = fetch(`${url}/v1/apps/fault-app/versions`, upload.init(t))
    await upload.halfSent()
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
    child.kill('SIGTERM')
    // The listener closes in the same tick as this line is logged.
    await logged('shutting down: finishing in-flight requests')
    await assert.rejects(
      fetch(`${url}/v1/health`, { headers: { connection: 'close' } }),
      'no new connections while shutting down',
    )
    release()
    const res = await pending
    assert.equal(res.status, 201, await res.text())
    assert.equal(await exited, 0)
    const messages = logs.map((l) => (JSON.parse(l) as { msg: string }).msg)
    for (const msg of [
      'generated JWT secret; it is kept in this file',
      'listening',
      'request',
      'shutting down: finishing in-flight requests',
      'stopped',
    ]) {
      assert.ok(messages.includes(msg), `log line ${JSON.stringify(msg)} missing: ${messages.join(' | ')}`)
    }
    assert.ok(!logs.some((l) => l.includes(SIGNUP_KEY)), 'the signup key is never logged')
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
})
