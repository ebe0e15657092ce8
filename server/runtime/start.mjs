#!/usr/bin/env node
// `node server/runtime/start.mjs`: the server's entry (`npm run server`, the container). Plain
// JavaScript that any Node parses, so an older Node (Debian's 20) stops with one line saying which
// Node to use and how, not with its own stack about the `.ts` extension. On the pinned Node it
// registers tsx, so Node can load the TypeScript sources, and runs node.ts's server.
import { readFileSync } from 'node:fs'
import { URL, fileURLToPath } from 'node:url'

const pinned = readFileSync(new URL('../../.nvmrc', import.meta.url), 'utf8').trim()
const wanted = Number(pinned.replace(/^v/, '').split('.')[0])
if (Number(process.versions.node.split('.')[0]) < wanted) {
  console.error(
    `Ferry needs Node ${wanted} (.nvmrc: ${pinned}); this is Node ${process.version} at ${process.execPath}. Start the server with npm run server, npx ferry server, or node_modules/.bin/node server/runtime/start.mjs (the Node npm ci installed).`,
  )
  process.exit(1)
}

const { register } = await import('tsx/esm/api')
// Ferry's own compiler settings, wherever the process runs.
register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) })
const { runServer } = await import('./node.ts')
runServer().catch((error) => {
  console.error(error)
  process.exit(1)
})
