#!/usr/bin/env node
// Runs first in `npm ci`'s postinstall, `npm start` and `npm test`, as plain JavaScript so that any
// Node can run it. npm puts node_modules/.bin first on a script's PATH, and the node-linux-<arch>
// optional dependency links its `node` there: scripts get the Node pinned in .nvmrc even when npm
// itself runs on an older one (Debian's 20). This says so in one line, or stops when that Node is
// missing (a platform without such a package, or `--omit=optional`).
import { readFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { URL } from 'node:url'

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
