/**
 * The Host a client sends never ends up in an answer: links come from FERRY_PUBLIC_URL, or from a
 * Host FERRY_ALLOWED_HOSTS (by default a loopback name) allows, normalised. Any other Host gets
 * a 421 naming it, from the lean front, node:http's lane and Hono alike, also once the answer
 * cache holds the answer for an allowed Host. A server on 0.0.0.0 with neither set warns at start.
 */
import assert from 'node:assert/strict'
import { request } from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import {
  bearer,
  jsonBody,
  testDatabaseUrl,
  uploadForm,
  uploadMsixFixture,
  withUploadTeam,
  type UploadTeam,
} from './helpers.ts'
import { startServerProcess } from './server-process.ts'

const HOSTILE = ['evil.test', '0x7f.1', 'ferry.test.']
const APP = 'host-check'

/** Every answer that carries an absolute URL: update checks in each format, feeds, redirects, a listing. */
const PATHS = [
  `/v1/apps/${APP}/update?version=1.0.0&platform=windows&arch=x64&format=ferry`,
  `/v1/apps/${APP}/latest?channel=stable&platform=windows&arch=x64&packageType=exe`,
  `/v1/apps/${APP}/squirrel/stable/x64/RELEASES?localVersion=1.0.0`,
  `/v1/apps/${APP}/squirrel/stable/x64/${APP}-1.1.0-full.nupkg`,
  `/v1/apps/${APP}/electron-updater/stable/windows/x64/1.0.0/latest.yml`,
  `/v1/apps/${APP}/squirrel-mac/stable/x64?version=1.0.0`,
  `/v1/apps/${APP}/tauri/stable/darwin/x86_64/1.0.0`,
  `/v1/apps/${APP}/velopack/stable/windows/x64/releases.stable.json?localVersion=1.0.0`,
  `/v1/apps/${APP}/sparkle/stable/windows/x64/appcast.xml?version=1.0.0`,
  `/v1/apps/${APP}/msix/stable/x64/app.appinstaller`,
  `/v1/apps/${APP}/versions`,
]

interface Answer {
  status: number
  /** Every header line, as received. */
  head: string
  body: string
}

/** A GET on a connection of its own (so the lean front reads it first) with the Host header `host`. */
function get(serverUrl: string, path: string, host: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { hostname, port } = new URL(serverUrl)
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, agent: false, headers: { ...headers, host } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => {
        const head = res.rawHeaders.map((v, i) => (i % 2 ? `${v}\n` : `${v}: `)).join('')
        resolve({ status: res.statusCode ?? 0, head, body })
      })
    })
    req.on('error', reject)
    req.end()
  })
}

/** The answer is a 421 naming `host` in its detail, and only there. */
function assertMisdirected(answer: Answer, host: string, variable: RegExp, where: string): void {
  assert.equal(answer.status, 421, `${where}: ${answer.body}`)
  const problem = JSON.parse(answer.body) as Record<string, unknown>
  assert.equal(problem.type, 'https://ferry.example.org/docs/troubleshooting#misdirected', where)
  assert.equal(problem.title, 'Misdirected request', where)
  assert.ok(String(problem.detail).includes(`The Host ${JSON.stringify(host)} is not one this server answers`), where)
  assert.match(String(problem.detail), variable, where)
  assert.match(answer.head, /^cache-control: no-store$/m, where)
  delete problem.detail
  assertAbsent({ ...answer, body: JSON.stringify(problem) }, host, where)
}

function assertAbsent(answer: Answer, host: string, where: string): void {
  const text = `${answer.head}\n${answer.body}`
  assert.ok(!text.includes(host), `${where}: the Host ${host} is in the answer:\n${text}`)
}

/** A server with `config` and the app `host-check`: files for every updater, on Windows and macOS. */
function serverWith(config: Parameters<typeof withUploadTeam>[2]): UploadTeam {
  return withUploadTeam(APP, undefined, config, async ({ f, token }) => {
    assert.equal((await f('/v1/platforms', jsonBody({ name: 'darwin' }, token))).status, 201)
    await uploadMsixFixture(f, token, APP, '1.0.5')
    for (const [platform, files] of [
      ['windows', [`${APP}-1.1.0.exe`, `${APP}-1.1.0-full.nupkg`]],
      ['darwin', [`${APP}-1.1.0-mac.zip`, `${APP}_1.1.0.app.tar.gz`, `${APP}_1.1.0.app.tar.gz.sig`]],
    ] as const) {
      const fields = { version: '1.1.0', channel: 'stable', platform, arch: 'x64', published: 'true' }
      const form = uploadForm(
        fields,
        files.map((name) => [name, `bytes of ${name}`]),
      )
      const res = await f(`/v1/apps/${APP}/versions`, bearer(token, { method: 'POST', body: form }))
      assert.equal(res.status, 201, await res.text())
    }
  })
}

/** Sends each path with an allowed Host twice, so that the answer cache (and the lane) hold them. */
async function warm(team: UploadTeam, host: string): Promise<void> {
  for (const path of PATHS) {
    for (let i = 0; i < 2; i++) {
      const answer = await get(team.server.url, path, host, { authorization: `Bearer ${team.token}` })
      assert.ok([200, 302].includes(answer.status), `${path}: ${answer.status} ${answer.body}`)
    }
  }
}

for (const leanHttp of [true, false]) {
  describe(`without FERRY_PUBLIC_URL or FERRY_ALLOWED_HOSTS (lean front ${leanHttp ? 'on' : 'off'})`, () => {
    const team = serverWith({ leanHttp })

    test('another Host gets 421 naming it on every path, also with the answers cached for 127.0.0.1', async () => {
      await warm(team, new URL(team.server.url).host)
      const answeredBefore = team.server.lane.answered
      for (const host of HOSTILE) {
        for (const path of [...PATHS, '/v1/whoami', '/console', '/v1/nothing-here']) {
          for (let i = 0; i < 2; i++) {
            const answer = await get(team.server.url, path, host, { authorization: `Bearer ${team.token}` })
            assertMisdirected(answer, host, /neither FERRY_PUBLIC_URL nor FERRY_ALLOWED_HOSTS/, `${host} ${path}`)
          }
        }
      }
      assert.equal(team.server.lane.answered, answeredBefore, 'the lane answered none of them')
    })

    test('loopback names are answered on any port, and the health check on any Host', async () => {
      const { port } = new URL(team.server.url)
      for (const host of [`localhost:${port}`, `LocalHost.:${port}`, `[::1]:${port}`, '127.0.0.1']) {
        const answer = await get(team.server.url, PATHS[0] ?? '', host)
        assert.equal(answer.status, 200, `${host}: ${answer.body}`)
        const canonical = host.toLowerCase().replace('.:', ':')
        assert.ok(answer.body.includes(`"downloadUrl":"http://${canonical}/v1/apps/${APP}/`), answer.body)
      }
      assert.equal((await get(team.server.url, '/v1/health', 'evil.test')).status, 200)
    })
  })
}

describe('with FERRY_PUBLIC_URL', () => {
  const team = serverWith({ publicUrl: 'https://updates.example.com/' })

  test('every Host is answered, and every link starts with FERRY_PUBLIC_URL', async () => {
    await warm(team, new URL(team.server.url).host)
    for (const host of HOSTILE) {
      for (const path of PATHS) {
        const answer = await get(team.server.url, path, host, { authorization: `Bearer ${team.token}` })
        assert.ok([200, 302].includes(answer.status), `${host} ${path}: ${answer.status} ${answer.body}`)
        assertAbsent(answer, host, `${host} ${path}`)
        const links = `${answer.head}\n${answer.body}`.match(/https?:\/\/[^\s"'<>]+\/v1\/apps\//g) ?? []
        // Squirrel.Windows and Velopack feeds name their packages relative to the feed.
        assert.ok(links.length > 0 || /RELEASES|velopack/.test(path), `${path}: no link`)
        for (const link of links) assert.ok(link.startsWith('https://updates.example.com/v1/'), `${path}: ${link}`)
      }
    }
  })
})

describe('with FERRY_ALLOWED_HOSTS', () => {
  const team = serverWith({ allowedHosts: ['ferry.test', 'updates.example.com:8443', '127.0.0.1'] })

  test('the names listed are answered, normalised in links; a port listed is the only one', async () => {
    await warm(team, '127.0.0.1')
    const answered: Array<[string, string]> = [
      ['ferry.test.', 'http://ferry.test/'],
      ['FERRY.Test.:8080', 'http://ferry.test:8080/'],
      ['updates.example.com:8443', 'http://updates.example.com:8443/'],
    ]
    for (const [host, base] of answered) {
      for (const path of PATHS) {
        const answer = await get(team.server.url, path, host, { authorization: `Bearer ${team.token}` })
        assert.ok([200, 302].includes(answer.status), `${host} ${path}: ${answer.status} ${answer.body}`)
        // The name as sent, where it is not the normalised one links carry.
        if (host !== new URL(base).host) assertAbsent(answer, host, `${host} ${path}`)
        const linked = `${answer.head}\n${answer.body}`.includes(`${base}v1/apps/${APP}/`)
        assert.ok(linked || /RELEASES|velopack/.test(path), `${host} ${path}: no link on ${base}`)
      }
    }
    for (const host of ['evil.test', 'updates.example.com:9443', 'updates.example.com', 'localhost']) {
      const answer = await get(team.server.url, PATHS[0] ?? '', host)
      assertMisdirected(answer, host, /FERRY_ALLOWED_HOSTS does not list it/, host)
    }
  })
})

describe('the start-up warning', () => {
  const start = async (env: Record<string, string>) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ferry-host-'))
    const server = await startServerProcess({ dataDir, databaseUrl: await testDatabaseUrl(), env })
    await server.stop()
    await rm(dataDir, { recursive: true, force: true })
    return server.startLog.filter((e) => e.level === 40 && /FERRY_ALLOWED_HOSTS/.test(e.msg ?? ''))
  }

  test('listening on 0.0.0.0 with neither variable set logs one warning naming both', async () => {
    const warnings = await start({ FERRY_HOST: '0.0.0.0' })
    assert.equal(warnings.length, 1)
    assert.match(warnings[0]?.msg ?? '', /FERRY_HOST=0\.0\.0\.0 .*set FERRY_PUBLIC_URL .*FERRY_ALLOWED_HOSTS/)
  })

  test('no warning on loopback, or with either variable set', async () => {
    assert.deepEqual(await start({}), [])
    assert.deepEqual(await start({ FERRY_HOST: '0.0.0.0', FERRY_ALLOWED_HOSTS: 'updates.example.com' }), [])
    assert.deepEqual(await start({ FERRY_HOST: '0.0.0.0', FERRY_PUBLIC_URL: 'https://updates.example.com' }), [])
  })
})
