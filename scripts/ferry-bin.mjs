#!/usr/bin/env node
// The package's `ferry` bin (`npx ferry …`, `npm run server`, the systemd unit). Plain JavaScript
// that any Node parses: it checks the Node first, against the pinned one (.nvmrc). On an older one
// it runs itself again on the pinned Node, before anything is loaded or written: in a checkout, the
// node-<platform>-<arch> optional dependency; installed as a tool, that npm package fetched once
// into this package's own folder (.node/), where nothing of the app sees it (the tool's manifest
// has no such dependency: scripts/tool-manifest.mjs). On a Node that fits it registers tsx, so Node
// can load the TypeScript entry, and runs it.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { setInterval, clearInterval } from 'node:timers'
import { URL, fileURLToPath } from 'node:url'

const pinned = readFileSync(new URL('../.nvmrc', import.meta.url), 'utf8')
  .trim()
  .replace(/^v/, '')
const major = (version) => Number(String(version).replace(/^v/, '').split('.')[0])
const wanted = major(pinned)
const nodePackage = `node-${process.platform}-${process.arch}`
const privateDir = fileURLToPath(new URL('../.node/', import.meta.url))
const privateNode = join(privateDir, `${nodePackage}-${pinned}`, 'bin', 'node')

/** The checkout's pinned Node: its npm package, where this package resolves it. */
function checkoutNode() {
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
 * Fetches the pinned Node's npm package with `npm pack` (the registry and cache npm is set up
 * with) and unpacks it into .node/ beside this bin; a second process doing the same meanwhile
 * loses the final rename and uses the winner's. Returns a reason when it cannot.
 */
function fetchPrivateNode() {
  try {
    mkdirSync(privateDir, { recursive: true })
  } catch (error) {
    return `cannot write ${privateDir}: ${error.message}`
  }
  const work = mkdtempSync(join(privateDir, 'fetch-'))
  try {
    const spec = `${nodePackage}@${pinned}`
    const packed = spawnSync(
      'npm',
      ['pack', spec, '--loglevel=error', '--prefer-offline', '--pack-destination', work],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    if (packed.error || packed.status !== 0) {
      // npm's reason, without its `code` line and the pointer to its log.
      const detail =
        packed.error?.message ??
        packed.stderr
          .split('\n')
          .map((line) => line.replace(/^npm (error|ERR!) /, '').trim())
          .find((line) => line && !/^code |^A complete log/.test(line))
      return `npm pack ${spec} failed${detail ? `: ${detail}` : ''}`
    }
    const tarball = join(work, packed.stdout.trim().split('\n').pop())
    const unpacked = spawnSync('tar', ['-xzf', tarball, '-C', work], { encoding: 'utf8' })
    if (unpacked.error || unpacked.status !== 0)
      return `cannot unpack ${tarball}: ${unpacked.error?.message ?? unpacked.stderr.trim()}`
    try {
      renameSync(join(work, 'package'), dirname(dirname(privateNode)))
    } catch (error) {
      if (!existsSync(privateNode)) return `cannot move Node into ${privateDir}: ${error.message}`
    }
    return existsSync(privateNode) ? undefined : `${spec} has no bin/node`
  } finally {
    rmSync(work, { recursive: true, force: true })
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
  // Under npm (`npx ferry server`) npm's SIGTERM ends the `sh -c` it ran this in, which does not
  // pass it on (scripts/ferry-server.ts, stopWithParent): a parent gone is a SIGTERM.
  if (process.env.npm_command) {
    const parent = process.ppid
    const watching = setInterval(() => {
      if (process.ppid === parent) return
      clearInterval(watching)
      child.kill('SIGTERM')
    }, 500)
    watching.unref()
  }
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
  const older = `ferry: Node ${process.version} (${process.execPath}) is older than ${wanted}`
  let pinnedNode = checkoutNode()
  if (!pinnedNode && !existsSync(privateNode)) {
    console.error(`${older}: fetching Node ${pinned} (npm package ${nodePackage}) into ${privateDir}`)
    const failed = fetchPrivateNode()
    if (failed) {
      console.error(
        `ferry: needs Node ${wanted}; ${failed}. Install Node ${wanted} and put it first on PATH, or run again when the npm registry is reachable.`,
      )
      process.exit(1)
    }
  }
  pinnedNode ??= { binary: privateNode, version: pinned }
  console.error(`${older}: running on Node ${pinnedNode.version} (${pinnedNode.binary})`)
  relaunch(pinnedNode.binary)
} else {
  const { register } = await import('tsx/esm/api')
  // Ferry's own compiler settings, not those of a tsconfig.json in the folder it runs in.
  register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) })
  await import('./ferry.ts')
}
