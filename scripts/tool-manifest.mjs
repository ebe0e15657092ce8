#!/usr/bin/env node
// `npm pack`'s prepack (`write`) and postpack (`restore`): the tarball's package.json is the tool's,
// not the checkout's. The checkout's manifest brings Node 24 for its own scripts (the
// node-linux-<arch> optional dependency, whose `node` bin npm links into node_modules/.bin) and asks
// for it in `engines`. Installed into an app, both would reach the app: npm links the `node` bin of
// every package at the top of the app's node_modules, direct or hoisted, so the app's scripts would
// run on Node 24, and npm warns about each engines range the Node running npm misses. The tool's
// manifest has neither: its bin (scripts/ferry-bin.mjs) fetches the pinned Node (.nvmrc) into its
// own folder when the Node it starts on is older. better-sqlite3 and kysely, which ask for Node 22,
// come bundled in the tarball: npm checks the engines of the packages it resolves, not of those a
// tarball brings, and better-sqlite3 ships its binaries for every platform (Node-API, any Node).
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { URL, fileURLToPath } from 'node:url'

const manifest = fileURLToPath(new URL('../package.json', import.meta.url))
const saved = `${manifest}.checkout`

/** The tool's manifest made from the checkout's. */
function toolManifest(pkg) {
  const tool = { ...pkg, scripts: { ...pkg.scripts }, files: [...pkg.files, '.nvmrc'] }
  delete tool.engines
  delete tool.optionalDependencies
  // The checkout's install step; npm would run it for a tarball it installs.
  delete tool.scripts.prepare
  return { ...tool, bundleDependencies: ['better-sqlite3', 'kysely'] }
}

function restore() {
  if (existsSync(saved)) renameSync(saved, manifest)
}

const command = process.argv[2]
if (command === 'write') {
  // A pack that failed before its postpack left the tool's manifest in place: start from the checkout's.
  restore()
  const text = readFileSync(manifest, 'utf8')
  writeFileSync(saved, text)
  writeFileSync(manifest, `${JSON.stringify(toolManifest(JSON.parse(text)), null, 2)}\n`)
} else if (command === 'restore') {
  restore()
} else {
  console.error('usage: node scripts/tool-manifest.mjs write|restore')
  process.exit(2)
}
