import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'

const root = join(import.meta.dirname, '..')
const spec = JSON.parse(readFileSync(join(root, 'public/openapi.json'), 'utf8'))

/**
 * The home page's start ends with an update check whose answer it shows through jq. The docs
 * runner runs those blocks against a real server and compares the output; this holds the request
 * and the fields it picks to the contract.
 */
test('the update check on the home page asks and reads what the contract defines', () => {
  const home = readFileSync(join(root, 'pages/index.mdx'), 'utf8')
  const curl = /```bash runnable\n(curl -s "\$FERRY\/v1\/apps\/[^"]*\/update\?[\s\S]*?)```/.exec(home)?.[1]
  assert.ok(curl, 'home page lost its update check')

  const operation = spec.paths['/v1/apps/{app}/update'].get
  const url = new URL(/"([^"]+)"/.exec(curl)![1]!.replace('$FERRY', 'http://127.0.0.1:8080'))
  assert.equal(url.pathname, '/v1/apps/harbor-notes/update')
  const required = operation.parameters
    .filter((p: { required?: boolean; in: string }) => p.required && p.in === 'query')
    .map((p: { name: string }) => p.name)
  for (const name of required)
    assert.ok(url.searchParams.has(name), `home page request lacks required query parameter ${name}`)
  for (const name of url.searchParams.keys()) {
    assert.ok(
      operation.parameters.some((p: { name: string }) => p.name === name),
      `home page sends ${name}, which the contract does not define`,
    )
  }

  const picked = /jq '\{([^}]*)\}'/.exec(curl)?.[1]
  assert.ok(picked, 'the update check no longer picks fields with jq')
  const schema = spec.components.schemas.UpdateInfo as { properties: Record<string, unknown> }
  // `version` picks a field as it is; `files: [.artifacts[].fileName]` renames a list from one.
  for (const field of picked
    .split(',')
    .map((f) => f.trim())
    .filter((f) => /^\w+$/.test(f)))
    assert.ok(field in schema.properties, `the home page reads ${field}, which UpdateInfo does not define`)
  const artifacts = /\.(\w+)\[\]\.(\w+)/.exec(picked)
  assert.ok(artifacts, 'the home page no longer lists the files it is offered')
  assert.ok(artifacts[1]! in schema.properties, `UpdateInfo has no ${artifacts[1]}`)
})
