import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

const root = join(import.meta.dirname, '..')
const spec = JSON.parse(readFileSync(join(root, 'public/openapi.json'), 'utf8'))

test('the request and response on the home page are the ones the contract defines', () => {
  const home = readFileSync(join(root, 'pages/index.mdx'), 'utf8')
  const json = /```json\n([\s\S]*?)```/.exec(home)?.[1]
  const curl = /```bash\n(curl[\s\S]*?)```/.exec(home)?.[1]
  assert.ok(json && curl, 'home page lost its request/response example')

  const operation = spec.paths['/v1/apps/{app}/update'].get
  const url = new URL(/"([^"]+)"/.exec(curl)![1]!)
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

  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
  ajv.addSchema(spec, 'spec')
  const validate = ajv.compile({ $ref: 'spec#/components/schemas/UpdateInfo' })
  assert.ok(validate(JSON.parse(json)), ajv.errorsText(validate.errors))
})
