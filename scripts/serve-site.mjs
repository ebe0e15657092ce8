#!/usr/bin/env node
// `npm start` / `npm run serve`: serves the built site in out/ on 127.0.0.1 port 3000, or the
// address and port given as `--host H` and `--port N` (`npm start -- --host 0.0.0.0 --port 4000`)
// or in HOST and PORT. Only this machine reaches it unless a host says otherwise.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath, URL } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

/** `--name V`, `--name=V` (or `-short V`) from argv, else the variable: the value and where it came from. */
function option(args, name, short, variable) {
  const at = args.findIndex((a) => a === `--${name}` || a === short || a.startsWith(`--${name}=`))
  if (at === -1) return { value: process.env[variable], source: variable, used: [] }
  const inline = args[at].startsWith(`--${name}=`)
  return {
    value: inline ? args[at].slice(`--${name}=`.length) : args[at + 1],
    source: `--${name}`,
    used: inline ? [at] : [at, at + 1],
  }
}

const args = process.argv.slice(2)
const portOption = option(args, 'port', '-p', 'PORT')
const hostOption = option(args, 'host', '-H', 'HOST')
const used = new Set([...portOption.used, ...hostOption.used])
const unknown = args.filter((_, i) => !used.has(i))
if (unknown.length) {
  console.error(`serve: unknown argument ${unknown[0]} (accepted: --port N and --host H, or PORT=N and HOST=H)`)
  process.exit(2)
}
const given = portOption.value
const port = given === undefined || given === '' ? 3000 : Number(given)
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`serve: ${portOption.source} must be a port number from 1 to 65535, got ${JSON.stringify(given)}`)
  process.exit(2)
}
const host = hostOption.value === undefined || hostOption.value === '' ? '127.0.0.1' : hostOption.value
if (!/^[A-Za-z0-9.:-]+$/.test(host)) {
  console.error(`serve: ${hostOption.source} must be a host name or an IP address, got ${JSON.stringify(host)}`)
  process.exit(2)
}
if (!existsSync(`${root}/out/index.html`)) {
  console.error('serve: out/ holds no built site; run npm run build first (npm start does both)')
  process.exit(1)
}
const child = spawn(
  process.execPath,
  [
    `${root}/node_modules/serve/build/main.js`,
    'out',
    '-l',
    `tcp://${host.includes(':') ? `[${host}]` : host}:${port}`,
    '--no-port-switching',
    '--no-clipboard',
  ],
  { cwd: root, stdio: 'inherit' },
)
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
