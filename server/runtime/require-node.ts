/**
 * @module The Node entry's first import: stops on a Node older than the one .nvmrc pins before
 * anything else loads. better-sqlite3 crashes an older Node (status 139, no message) as soon as it
 * is loaded.
 */
import { readFileSync } from 'node:fs'

const pinned = readFileSync(new URL('../../.nvmrc', import.meta.url), 'utf8').trim()
/** The Node major .nvmrc pins: the one CI runs. */
export const pinnedNodeMajor = Number(pinned.replace(/^v/, '').split('.')[0])
if (Number(process.versions.node.split('.')[0]) < pinnedNodeMajor) {
  console.error(
    `Ferry needs Node ${pinnedNodeMajor} (.nvmrc: ${pinned}); this is Node ${process.version} at ${process.execPath}. Start it with the Node that npm ci installed (node_modules/.bin/node) or another Node ${pinnedNodeMajor}.`,
  )
  process.exit(1)
}
