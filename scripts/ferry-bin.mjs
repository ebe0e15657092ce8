#!/usr/bin/env node
// The package's `ferry` bin (`npx ferry …`, `npm run server`, the systemd unit). Plain JavaScript
// that any Node parses: it checks the Node first, against package.json's engines. On an older one
// it runs itself again on the pinned Node that the node-<platform>-<arch> optional dependency
// installed, or stops with one line, before anything is loaded or written. On a Node that fits it
// registers tsx, so Node can load the TypeScript entry, and runs it.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { URL, fileURLToPath } from 'node:url'

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
const wanted = Number(/\d+/.exec(pkg.engines.node)?.[0] ?? 0)
const major = (version) => Number(String(version).replace(/^v/, '').split('.')[0])
const nodePackage = `node-${process.platform}-${process.arch}`

/** The pinned Node's binary when its npm package is installed where this package resolves it. */
function pinnedNode() {
  try {
    const manifest = createRequire(import.meta.url).resolve(`${nodePackage}/package.json`)
    const { version } = JSON.parse(readFileSync(manifest, 'utf8'))
    const binary = join(dirname(manifest), 'bin', 'node')
    return major(version) >= wanted && existsSync(binary) ? { binary, version } : undefined
  } catch {
    return undefined
  }
}

/**
 * Runs this bin again on `binary`, in its own process group: Ctrl-C reaches only this process,
 * which passes it on once (the server takes a second signal as "exit now"). Signals sent to this
 * process go to the server; it exits as the server did.
 */
function relaunch(binary) {
  const child = spawn(binary, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    detached: true,
  })
  const signals = ['SIGTERM', 'SIGINT', 'SIGHUP']
  for (const signal of signals) process.on(signal, () => child.kill(signal))
  child.once('error', (error) => {
    console.error(`ferry: cannot run ${binary}: ${error.message}`)
    process.exit(1)
  })
  child.once('exit', (code, signal) => {
    if (!signal) process.exit(code ?? 1)
    for (const s of signals) process.removeAllListeners(s)
    process.kill(process.pid, signal)
  })
}

if (major(process.versions.node) < wanted) {
  const pinned = pinnedNode()
  if (!pinned) {
    console.error(
      `ferry: needs Node ${pkg.engines.node} (package.json engines); this is Node ${process.version} (${process.execPath}) and no ${nodePackage} package is installed beside Ferry: install Node ${wanted} and put it first on PATH, or install Ferry with its optional dependencies.`,
    )
    process.exit(1)
  }
  console.error(
    `ferry: Node ${process.version} (${process.execPath}) is older than ${pkg.engines.node}: running on Node ${pinned.version} (${pinned.binary}) instead`,
  )
  relaunch(pinned.binary)
} else {
  const { register } = await import('tsx/esm/api')
  // Ferry's own compiler settings, not those of a tsconfig.json in the folder it runs in.
  register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) })
  await import('./ferry.ts')
}
