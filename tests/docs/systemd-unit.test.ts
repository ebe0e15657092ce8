/**
 * local-deploy's systemd unit, run as systemd would run it: `systemd-analyze verify` on the unit
 * (with /opt/ferry standing for this checkout), then its ExecStart in its WorkingDirectory with
 * nothing but systemd's default PATH and the EnvironmentFile's variables. It runs `ferry server`
 * on a Node named by absolute path, which must be usable with ProtectHome=true (not under a home
 * directory); the server must start, and its KillSignal must stop it with status 0.
 */
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'

const root = join(import.meta.dirname, '..', '..')
const page = 'pages/docs/getting-started/local-deploy.mdx'
/** What systemd gives a service that sets no PATH (systemd.exec(5), "Environment variables"). */
const SYSTEMD_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
const scratch = mkdtempSync(join(tmpdir(), 'ferry-unit-'))
after(() => rmSync(scratch, { recursive: true, force: true }))

function unit(): { text: string; service: Record<string, string> } {
  const page_ = readFileSync(join(root, page), 'utf8')
  const block = [...page_.matchAll(/^```ini[^\n]*\n([\s\S]*?)^```/gm)]
    .map((m) => m[1]!)
    .find((b) => b.includes('[Service]'))
  assert.ok(block, `${page} shows a unit with a [Service] section`)
  const service: Record<string, string> = {}
  let section = ''
  for (const line of block.split('\n')) {
    const header = /^\[(\w+)\]$/.exec(line)
    if (header) section = header[1]!
    const pair = /^(\w+)=(.*)$/.exec(line)
    if (pair && section === 'Service') service[pair[1]!] = pair[2]!
  }
  return { text: block, service }
}

test(`${page}: the unit passes systemd-analyze verify and names a Node outside any home directory`, () => {
  const { text, service } = unit()
  const program = service.ExecStart?.split(' ')[0] ?? ''
  assert.ok(program.startsWith('/opt/ferry/'), `ExecStart runs a program of the install (${program})`)
  assert.doesNotMatch(program, /^\/(home|root|run\/user)\//, 'ProtectHome=true hides home directories')
  assert.match(program, /\/node$/, 'ExecStart names the Node it runs, not a #!/usr/bin/env node script')
  assert.match(
    service.ExecStart ?? '',
    / \/opt\/ferry\/scripts\/ferry-bin\.mjs server$/,
    'the unit runs `ferry server`',
  )
  const env = join(scratch, 'ferry.env')
  writeFileSync(env, '')
  const file = join(scratch, 'ferry.service')
  writeFileSync(file, text.replaceAll('/opt/ferry', root).replace(/^EnvironmentFile=.*$/m, `EnvironmentFile=${env}`))
  const result = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' })
  assert.equal(result.status, 0, `systemd-analyze verify:\n${result.stderr}${result.stdout}`)
})

test(
  `${page}: ExecStart under systemd's environment starts Ferry, and KillSignal stops it with status 0`,
  { timeout: 60_000 },
  async () => {
    const { service } = unit()
    const [program = '', ...args] = (service.ExecStart ?? '').replaceAll('/opt/ferry', root).split(' ')
    const dataDir = join(scratch, 'data')
    // env -i: nothing of this process's environment, as under systemd; env then execs the program.
    const child = spawn(
      '/usr/bin/env',
      [
        '-i',
        `PATH=${SYSTEMD_PATH}`,
        `FERRY_DATA_DIR=${dataDir}`,
        'FERRY_PORT=0',
        'FERRY_LOG_LEVEL=info',
        program,
        ...args,
      ],
      {
        cwd: (service.WorkingDirectory ?? '').replaceAll('/opt/ferry', root),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
    const lines: string[] = []
    const url = await new Promise<string>((resolve, reject) => {
      let buffer = ''
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString()
        const parts = buffer.split('\n')
        buffer = parts.pop() ?? ''
        for (const line of parts) {
          lines.push(line)
          const parsed = JSON.parse(line) as { msg: string; url?: string }
          if (parsed.msg === 'listening' && parsed.url) resolve(parsed.url)
        }
      })
      void exited.then((code) => reject(new Error(`ExecStart exited with ${code}:\n${stderr}`)))
    })
    assert.equal((await fetch(`${url}/v1/health`)).status, 200)
    assert.equal(service.KillSignal ?? 'SIGTERM', 'SIGTERM', 'the unit stops Ferry with the signal it drains on')
    child.kill('SIGTERM')
    assert.equal(await exited, 0, stderr)
    assert.ok(
      lines.some((l) => l.includes('"msg":"stopped"')),
      'the server drained and stopped',
    )
  },
)
