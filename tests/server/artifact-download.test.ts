/** Download answers on the default store: CDN cache headers, ETag and 304, ranges. */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { test } from 'node:test'
import { bearer, expectSpec, memoryApp, prepareUploadTeam, uploadForm } from './helpers.ts'

test('public artifacts are cacheable for a year with their SHA-256 as ETag; drafts and private apps are no-store', async () => {
  const m = await memoryApp()
  const token = await prepareUploadTeam(m.fetch, 'cdn-app')
  const bytes = new TextEncoder().encode('installer bytes 0123456789')
  const sha256 = createHash('sha256').update(bytes).digest('hex')
  const upload = async (version: string, published: string) => {
    const res = await m.fetch(
      '/v1/apps/cdn-app/versions',
      bearer(token, {
        method: 'POST',
        body: uploadForm({ version, channel: 'stable', platform: 'windows', arch: 'x64', published }, [
          [`Cdn-${version}.exe`, bytes],
        ]),
      }),
    )
    assert.equal(res.status, 201, await res.clone().text())
    return new URL(
      ((await res.json()) as { artifacts: Array<{ downloadUrl: string }> }).artifacts[0]?.downloadUrl ?? '',
    ).pathname
  }
  const published = await upload('1.0.0', 'true')
  const res = await m.fetch(published)
  assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable')
  assert.equal(res.headers.get('etag'), `"${sha256}"`)
  await expectSpec('downloadArtifact', res, 200)

  const cached = await m.fetch(published, { headers: { 'if-none-match': `"${sha256}"` } })
  assert.equal(cached.headers.get('cache-control'), 'public, max-age=31536000, immutable')
  await expectSpec('downloadArtifact', cached, 304)
  assert.equal((await m.fetch(published, { headers: { 'if-none-match': '"other"' } })).status, 200)

  const part = await m.fetch(published, { headers: { range: 'bytes=-4' } })
  assert.equal(
    part.headers.get('content-range'),
    `bytes ${bytes.byteLength - 4}-${bytes.byteLength - 1}/${bytes.byteLength}`,
  )
  assert.equal(part.headers.get('etag'), `"${sha256}"`)
  assert.equal(await part.text(), '6789')

  const draft = await upload('2.0.0', 'false')
  const draftRes = await m.fetch(draft, bearer(token))
  assert.equal(draftRes.status, 200)
  assert.equal(draftRes.headers.get('cache-control'), 'private, no-store')

  assert.equal(
    (
      await m.fetch(
        '/v1/apps/cdn-app',
        bearer(token, {
          method: 'PATCH',
          body: JSON.stringify({ private: true }),
          headers: { 'content-type': 'application/json' },
        }),
      )
    ).status,
    200,
  )
  const privateRes = await m.fetch(published, bearer(token))
  assert.equal(privateRes.status, 200)
  assert.equal(
    privateRes.headers.get('cache-control'),
    'private, no-store',
    'once the app is private, its files are no longer for shared caches',
  )
})
