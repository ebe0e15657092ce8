import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { checkFiles } from '../lib/codegen/files.ts'
import { generate } from '../lib/generate-api.ts'
import { loadSpec } from '../lib/codegen/load.ts'
import { loadHistory } from '../lib/api-changelog/history.ts'

const ROOT = fileURLToPath(new URL('../', import.meta.url))

test('the committed API reference, types and downloads match openapi/openapi.yaml', async () => {
  const { files } = await generate(await loadSpec(`${ROOT}openapi/openapi.yaml`), {}, await loadHistory(ROOT))
  assert.deepEqual(
    await checkFiles(ROOT, files),
    { stale: [], missing: [], extra: [] },
    'run `npm run gen` and commit the result',
  )
})
