/**
 * Prometheus metrics (FERRY_METRICS_PORT): on their own listener, counting requests by
 * operation and status, update checks by format and cache result, upload bytes, the telemetry
 * buffer, and Node's process metrics; the public port does not serve them.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { bearer, prepareUploadTeam, uploadForm, withTestServer } from './helpers.ts'

const suite = withTestServer(1024 * 1024, { metrics: { host: '127.0.0.1', port: 0 } })
const { f } = suite

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
async function sample(name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const res = await fetch(suite.server.metricsUrl ?? '')
  assert.equal(res.status, 200)
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/)
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`)
  for (const line of (await res.text()).split('\n')) {
    const m = /^([a-z_:]+)(?:\{([^}]*)\})? (\S+)$/.exec(line)
    if (!m || m[1] !== name) continue
    const have = (m[2] ?? '').split(',').filter(Boolean)
    if (wanted.every((w) => have.includes(w))) return Number(m[3])
  }
  return undefined
}

test('requests, update checks, uploads and the telemetry buffer are counted, on a port of their own', async () => {
  assert.ok(suite.server.metricsUrl?.startsWith('http://127.0.0.1:'), suite.server.metricsUrl)
  assert.notEqual(new URL(suite.server.metricsUrl ?? '').port, new URL(suite.server.url).port)
  const token = await prepareUploadTeam(f, 'metered-app')
  assert.equal(await sample('ferry_http_requests_total', { operation: 'createApp', method: 'POST', status: '201' }), 1)

  const bytes = new Uint8Array(12_345).fill(1)
  const upload = await f(
    '/v1/apps/metered-app/versions',
    bearer(token, {
      method: 'POST',
      body: uploadForm({ version: '1.1.0', channel: 'stable', platform: 'windows', arch: 'x64', published: 'true' }, [
        ['app-1.1.0.exe', bytes],
      ]),
    }),
  )
  assert.equal(upload.status, 201)
  assert.equal(await sample('ferry_uploads_total'), 1)
  assert.equal(await sample('ferry_upload_bytes_total'), 12_345)

  const check = () =>
    f('/v1/apps/metered-app/update?version=1.0.0&platform=windows&arch=x64&format=ferry', {
      headers: { 'x-ferry-device-id': 'device-1' },
    })
  assert.equal((await check()).status, 200)
  assert.equal((await check()).status, 200)
  assert.equal(await sample('ferry_update_checks_total', { format: 'ferry', cache: 'miss' }), 1)
  assert.equal(await sample('ferry_update_checks_total', { format: 'ferry', cache: 'hit' }), 1)
  assert.equal(await sample('ferry_http_request_duration_seconds_count', { operation: 'checkForUpdate' }), 2)
  assert.equal(await sample('ferry_telemetry_buffered_devices'), 1, 'the device waits in the buffer for the next flush')

  assert.equal((await f('/v1/nothing-here')).status, 404)
  assert.equal(await sample('ferry_http_requests_total', { operation: 'unmatched', method: 'GET', status: '404' }), 1)
  assert.ok(((await sample('ferry_process_resident_memory_bytes')) ?? 0) > 0, 'Node process metrics are included')

  assert.equal((await f('/metrics')).status, 404, 'the public port does not serve metrics')
  assert.equal((await fetch(`${new URL(suite.server.metricsUrl ?? '').origin}/other`)).status, 404)
})
