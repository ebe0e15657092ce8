#!/usr/bin/env node
// Runs first in `npm ci`'s prepare, `npm start` and `npm test`, as plain JavaScript so that any
// Node can run it. npm puts node_modules/.bin first on a script's PATH, and the node-linux-<arch>
// optional dependency links its `node` there: scripts get the Node pinned in .nvmrc even when npm
// itself runs on an older one (Debian's 20). This says so in one line, or stops when that Node is
// missing (a platform without such a package, or `--omit=optional`). After an install it also
// checks the installed packages' engines against that Node: npm's own check, which compares them
// with the Node npm runs on, is quiet here (.npmrc).
import { existsSync, readFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { URL, fileURLToPath } from 'node:url'

const pinned = readFileSync(new URL('../.nvmrc', import.meta.url), 'utf8')
  .trim()
  .replace(/^v/, '')
const major = (version) => Number(version.replace(/^v/, '').split('.')[0])

if (major(process.version) < major(pinned)) {
  console.error(
    `Ferry needs Node ${pinned} (.nvmrc); this is Node ${process.version} (${process.execPath}), and no node-${process.platform}-${process.arch} package provides it here. Install Node ${major(pinned)}, put it first on PATH, and run npm ci again.`,
  )
  process.exit(1)
}

const npmNode = process.env.npm_node_execpath
if (npmNode && npmNode !== process.execPath) {
  let npmVersion = ''
  try {
    npmVersion = execFileSync(npmNode, ['--version'], { encoding: 'utf8' }).trim()
  } catch {
    // npm's Node is gone or not runnable: nothing to compare.
  }
  if (npmVersion && major(npmVersion) < major(pinned)) {
    console.error(
      `Node ${npmVersion} (${npmNode}) is older than Ferry's ${pinned}: npm scripts here run Node ${process.version} from node_modules/.bin/node (npm package node-${process.platform}-${process.arch}).`,
    )
  }
}

/** One line per installed package whose engines.node does not admit the Node that runs scripts. */
function checkInstalledEngines() {
  let satisfies
  try {
    satisfies = createRequire(import.meta.url)('semver/functions/satisfies')
  } catch {
    return
  }
  const root = fileURLToPath(new URL('..', import.meta.url))
  const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'))
  for (const [path, meta] of Object.entries(lock.packages ?? {})) {
    const range = meta.engines?.node
    // The root is this check's first part; optional packages of other platforms are not installed.
    if (!path || typeof range !== 'string' || !existsSync(`${root}${path}`)) continue
    if (!satisfies(process.version, range, { includePrerelease: true }))
      console.error(
        `${path.replace(/^.*node_modules\//, '')}@${meta.version} needs Node ${range} (its engines); npm scripts here run Node ${process.version}.`,
      )
  }
}

if (process.env.npm_lifecycle_event === 'prepare') checkInstalledEngines()
