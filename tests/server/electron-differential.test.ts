/**
 * electron-updater's own differential download (NsisUpdater → `differentialDownloadInstaller` →
 * `GenericDifferentialDownloader`, multi-range requests as its generic provider sends them) against
 * Ferry: two installers that share most blocks, each uploaded with its blockmap. A proxy in front
 * of Ferry counts the bytes Ferry sends, so the test shows only the changed ranges were fetched.
 */
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { stringify } from 'yaml'
import { nsisUpdater } from './clients/electron-updater.ts'
import { blockmap } from './fixtures/blockmap.ts'
import { bearer, setUpTeam, uploadForm, withTeam } from './helpers.ts'

/** Deterministic bytes that do not compress or repeat (xorshift). */
function noise(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length)
  let x = seed >>> 0 || 1
  for (let i = 0; i < length; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    out[i] = x & 0xff
  }
  return out
}

const SIZE = 4 * 1024 * 1024
const OLD = noise(SIZE, 7)
// 1.1.0: 24 KiB rewritten at 1 MiB, 12 KiB inserted at 3 MiB; everything else as in 1.0.0.
const NEW = new Uint8Array([
  ...OLD.subarray(0, 1 << 20),
  ...noise(24 * 1024, 11),
  ...OLD.subarray((1 << 20) + 24 * 1024, 3 << 20),
  ...noise(12 * 1024, 13),
  ...OLD.subarray(3 << 20),
])

let proxy: http.Server
let proxyUrl: string
let work: string
/** Body bytes Ferry sent through the proxy, by request path. */
const served = new Map<string, number>()
const ranges: string[] = []

const team = withTeam(
  (f) =>
    setUpTeam(f, 'diff@team.test', [
      ['/v1/channels', { name: 'stable' }],
      ['/v1/platforms', { name: 'windows', updater: 'electron-updater' }],
      ['/v1/archs', { name: 'x64' }],
      ['/v1/apps', { slug: 'delta', name: 'Delta' }],
    ]),
  undefined,
  {},
  async ({ server, f, token }) => {
    for (const [version, bytes] of [
      ['1.0.0', OLD],
      ['1.1.0', NEW],
    ] as const) {
      const file = `Delta-Setup-${version}.exe`
      const form = uploadForm({ version, channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }, [
        [file, bytes],
        [`${file}.blockmap`, blockmap(bytes)],
      ])
      const res = await f('/v1/apps/delta/versions', bearer(token, { method: 'POST', body: form }))
      assert.equal(res.status, 201, await res.text())
    }
    // The counting proxy: Ferry sees the proxy's Host, so every URL it writes leads back through here.
    const target = new URL(server.url)
    proxy = http.createServer((req, res) => {
      if (req.headers.range) ranges.push(req.headers.range)
      const upstream = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers)
          up.on('data', (chunk: Buffer) => {
            const path = (req.url ?? '').split('?')[0] ?? ''
            served.set(path, (served.get(path) ?? 0) + chunk.length)
          })
          up.pipe(res)
        },
      )
      req.pipe(upstream)
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
    work = mkdtempSync(join(tmpdir(), 'ferry-differential-'))
  },
)

after(async () => {
  await new Promise((resolve) => proxy.close(resolve))
  rmSync(work, { recursive: true, force: true })
})

test('electron-updater downloads 1.1.0 differentially from Ferry: only the changed blocks, then the SHA-512 of the whole file', async () => {
  const cache = join(work, 'cache')
  const config = join(work, 'app-update.yml')
  writeFileSync(
    config,
    stringify({ provider: 'generic', url: `${proxyUrl}/unused`, updaterCacheDirName: 'delta-updater' }),
  )
  // The NSIS installer leaves the installed version's installer in the updater's cache.
  mkdirSync(join(cache, 'delta-updater'), { recursive: true })
  writeFileSync(join(cache, 'delta-updater', 'installer.exe'), OLD)
  const log: string[] = []
  const updater = nsisUpdater(
    { version: '1.0.0', name: 'Delta', userData: join(work, 'userData'), cache, appUpdateConfig: config },
    log,
    { differential: true },
  )
  updater.setFeedURL({
    provider: 'generic',
    url: `${proxyUrl}/v1/apps/delta/electron-updater/stable/windows/x64/1.0.0`,
  })
  const result = await updater.checkForUpdates()
  assert.equal(result?.updateInfo.version, '1.1.0')
  const [downloaded] = await (result?.downloadPromise ?? Promise.reject(new Error('no download started')))
  assert.ok(downloaded)
  assert.deepEqual(new Uint8Array(readFileSync(downloaded)), NEW, 'the rebuilt installer is 1.1.0 byte for byte')
  assert.ok(!log.some((l) => /fallback to full download/.test(l)), log.join('\n'))

  const files = '/v1/apps/delta/electron-updater/stable/windows/x64/files'
  // Both blockmaps at the URLs electron-updater derives: `<url>.blockmap`, and the same with its own version.
  assert.ok(served.has(`${files}/1.1.0/Delta-Setup-1.1.0.exe.blockmap`), [...served.keys()].join('\n'))
  assert.ok(served.has(`${files}/1.0.0/Delta-Setup-1.0.0.exe.blockmap`), [...served.keys()].join('\n'))
  const installerBytes = served.get(`${files}/1.1.0/Delta-Setup-1.1.0.exe`) ?? 0
  assert.ok(ranges.length > 0 && ranges.every((r) => r.startsWith('bytes=')), 'the installer came in ranges')
  // 36 KiB changed; chunks around each edit (≤ 32 KiB each side) come again, plus multipart headers.
  assert.ok(installerBytes > 36 * 1024, `served ${installerBytes} bytes`)
  assert.ok(installerBytes < 200 * 1024, `served ${installerBytes} bytes of a ${NEW.length}-byte installer`)
})

test('several ranges in one request: a multipart/byteranges answer with each part and its Content-Range', async () => {
  const res = await fetch(
    `${team.server.url}/v1/apps/delta/electron-updater/stable/windows/x64/files/1.0.0/Delta-Setup-1.0.0.exe`,
    { headers: { range: 'bytes=0-3, 100-104' } },
  )
  assert.equal(res.status, 206)
  const type = res.headers.get('content-type') ?? ''
  const boundary = /^multipart\/byteranges; boundary=(.+)$/.exec(type)?.[1]
  assert.ok(boundary, type)
  const body = Buffer.from(await res.arrayBuffer())
  assert.equal(Number(res.headers.get('content-length')), body.length)
  const text = body.toString('latin1')
  assert.match(
    text,
    new RegExp(
      `^--${boundary}\\r\\ncontent-type: application/octet-stream\\r\\ncontent-range: bytes 0-3/${SIZE}\\r\\n\\r\\n`,
    ),
  )
  assert.ok(body.includes(Buffer.concat([Buffer.from(OLD.subarray(100, 105)), Buffer.from(`\r\n--${boundary}--\r\n`)])))
  const single = await fetch(
    `${team.server.url}/v1/apps/delta/electron-updater/stable/windows/x64/files/1.0.0/Delta-Setup-1.0.0.exe`,
    { headers: { range: `bytes=0-3, ${SIZE}-${SIZE + 9}` } },
  )
  assert.equal(single.status, 200, 'a range outside the file: the whole file, as before')
  await single.body?.cancel()
})
