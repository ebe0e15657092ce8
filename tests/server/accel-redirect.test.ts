/**
 * FERRY_ACCEL_REDIRECT_PREFIX behind Debian's nginx, with the location production-deploy.mdx
 * shows: Ferry allows or refuses each download, nginx sends the bytes of allowed ones (ranges
 * included) with Ferry's headers, and the internal location cannot be reached directly.
 */
import assert from 'node:assert/strict'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { pageBlocks } from '../../lib/docs-runner/pages.ts'
import { freePort, startNginx, type Nginx } from '../../services/nginx-server.ts'
import { bearer, jsonBody, httpFetch, uploadOneFile, withUploadTeam, type Fetch } from './helpers.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const BYTES = 'The quick brown fox jumps over the lazy dog, 0123456789.'

// nginx reads the files from disk, whatever the backend matrix picks for other suites.
const team = withUploadTeam(
  'accel',
  undefined,
  { blobs: { kind: 'fs' }, accelRedirectPrefix: '/_ferry_blobs/' },
  inFront,
)
let nginx: Nginx
let front: Fetch
let downloadPath: string

/** The guide's internal location, pointed at this server's data dir. */
function guideLocation(blobDir: string): string {
  const block = pageBlocks(ROOT, 'pages/docs/getting-started/production-deploy.mdx').find(
    (b) => b.lang === 'nginx' && b.code.includes('internal;'),
  )
  assert.ok(block, 'production-deploy.mdx shows the X-Accel-Redirect location')
  assert.ok(block.code.includes('alias /var/lib/ferry/blobs/;'))
  return block.code.replace('alias /var/lib/ferry/blobs/;', `alias ${blobDir}/;`)
}

/** nginx in front of the team's server, with the guide's location, and one uploaded file. */
async function inFront() {
  const port = await freePort()
  const upstream = new URL(team.server.url).host
  nginx = await startNginx(
    [
      {
        port,
        body: `${guideLocation(join(team.server.dataDir, 'blobs'))}\n    location / { proxy_pass http://${upstream}; proxy_set_header Host $host; }`,
      },
    ],
    // Ferry writes artifact files readable by its own user only: nginx's workers run as that user, as the guide says.
    [`user ${userInfo().username};`],
  )
  front = httpFetch(`http://127.0.0.1:${port}`)
  downloadPath = await uploadOneFile(team.f, team.token, 'accel', 'Accel Setup.exe', BYTES)
}
after(async () => {
  await nginx?.stop()
})

test('Ferry answers an allowed download with X-Accel-Redirect and no bytes', async () => {
  const res = await httpFetch(team.server.url)(downloadPath)
  assert.equal(res.status, 200)
  assert.match(res.headers.get('x-accel-redirect') ?? '', /^\/_ferry_blobs\/\S+$/)
  assert.equal(await res.text(), '')
})

test("through nginx: the bytes, Ferry's headers, and ranges", async () => {
  const res = await front(downloadPath)
  assert.equal(res.status, 200)
  assert.equal(await res.text(), BYTES)
  assert.equal(res.headers.get('x-accel-redirect'), null, 'nginx does not show the internal path')
  assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable')
  assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="Accel Setup.exe"/)
  assert.match(res.headers.get('etag') ?? '', /^"[0-9a-f]{64}"$/, "the SHA-256, not nginx's own ETag")
  assert.match(res.headers.get('digest') ?? '', /^sha-256=/)
  const part = await front(downloadPath, { headers: { range: 'bytes=4-8' } })
  assert.equal(part.status, 206)
  assert.equal(await part.text(), 'quick')
})

test("a refused download stays Ferry's answer, and the internal location is not reachable", async () => {
  assert.equal((await front(downloadPath.replace(/art_[^/]+/, 'art_missing'))).status, 404)
  assert.equal(
    (
      await httpFetch(team.server.url)('/v1/apps/accel', {
        ...jsonBody({ private: true }, team.token),
        method: 'PATCH',
      })
    ).status,
    200,
  )
  const refused = await front(downloadPath)
  assert.equal(refused.status, 401)
  assert.equal(refused.headers.get('content-type'), 'application/problem+json')
  const allowed = await front(downloadPath, bearer(team.token))
  assert.equal(await allowed.text(), BYTES, "a private app's file with a token")
  assert.equal(allowed.headers.get('cache-control'), 'private, no-store')
  const key = (await httpFetch(team.server.url)(downloadPath, bearer(team.token))).headers.get('x-accel-redirect') ?? ''
  assert.equal((await front(key)).status, 404, "nginx serves the internal location only after Ferry's redirect")
})
