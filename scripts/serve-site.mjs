#!/usr/bin/env node
// `npm start` / `npm run serve`: serves the built site in out/ on port 3000, or the port given as
// `--port N` (`npm start -- --port 4000`) or in PORT.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath, URL } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const flag = args.findIndex((a) => a === '--port' || a === '-p' || a.startsWith('--port='))
const given =
  flag === -1
    ? process.env.PORT
    : args[flag].startsWith('--port=')
      ? args[flag].slice('--port='.length)
      : args[flag + 1]
const source = flag === -1 ? 'PORT' : '--port'
const inline = flag !== -1 && args[flag].startsWith('--port=')
const unknown = args.filter((a, i) => flag === -1 || (i !== flag && (inline || i !== flag + 1)))
if (unknown.length) {
  console.error(`serve: unknown argument ${unknown[0]} (accepted: --port N, or PORT=N)`)
  process.exit(2)
}
const port = given === undefined || given === '' ? 3000 : Number(given)
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`serve: ${source} must be a port number from 1 to 65535, got ${JSON.stringify(given)}`)
  process.exit(2)
}
if (!existsSync(`${root}/out/index.html`)) {
  console.error('serve: out/ holds no built site; run npm run build first (npm start does both)')
  process.exit(1)
}
const child = spawn(
  process.execPath,
  [`${root}/node_modules/serve/build/main.js`, 'out', '-l', String(port), '--no-port-switching', '--no-clipboard'],
  { cwd: root, stdio: 'inherit' },
)
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
