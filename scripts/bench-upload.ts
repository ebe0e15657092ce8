/**
 * Streams one large multipart upload into the real Node server (in-process, 127.0.0.1, temp
 * data dir) and prints throughput and how far the process's memory grew: a streamed upload
 * grows it by a few MiB whatever the file size. Also prints the portable (browser) digest speed.
 * `--backend s3` stores the artifact in object storage instead of the data dir: a radosgw started
 * for the run (services/s3-server.ts), or the endpoint of FERRY_TEST_S3_*; `--backend both`
 * runs disk, then S3, in one process.
 * Usage: npm run bench:upload [-- --mib 512] [-- --backend disk|s3|both]
 */
import { parseArgs } from 'node:util'
import type { BlobLocation } from '../server/runtime/config.ts'
import { jsDigestStream } from '../server/transfer/digests.ts'
import { startS3, type S3TestServer } from '../services/s3-server.ts'
import { benchTeam, startBenchOrigin } from './bench-origin.ts'

const { values } = parseArgs({
  options: { mib: { type: 'string', default: '512' }, backend: { type: 'string', default: 'disk' } },
})
const mib = Math.min(4096, Math.max(1, Number(values.mib)))
if (!['disk', 's3', 'both'].includes(values.backend))
  throw new Error(`--backend must be disk, s3 or both, got ${values.backend}`)
const backends = values.backend === 'both' ? (['disk', 's3'] as const) : [values.backend as 'disk' | 's3']
const CHUNK = 256 * 1024
const chunk = new Uint8Array(CHUNK).map((_, i) => (i * 31) % 251)

const MiB = 1024 * 1024

async function benchUpload(blobs: BlobLocation): Promise<{ seconds: number; rssBefore: number; rssPeak: number }> {
  const origin = await startBenchOrigin({ publicUrl: undefined, maxUploadBytes: (mib + 1) * 1024 * 1024, blobs })
  const { server } = origin
  const { token, call, json } = await benchTeam(server.url, {
    channels: ['stable'],
    platforms: ['windows'],
    archs: ['x64'],
  })
  await call('/v1/apps', json({ slug: 'bench-app', name: 'Bench' }))

  const boundary = 'ferry-bench-boundary'
  const encoder = new TextEncoder()
  const head = encoder.encode(
    ['version', 'channel', 'platform', 'arch']
      .map(
        (name, i) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${['1.0.0', 'stable', 'windows', 'x64'][i]}\r\n`,
      )
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="Bench Setup.exe"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  )
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`)
  let sent = -1
  const total = (mib * 1024 * 1024) / CHUNK
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === -1) controller.enqueue(head)
      else if (sent < total) controller.enqueue(chunk)
      else if (sent === total) controller.enqueue(tail)
      else controller.close()
      sent++
    },
  })

  global.gc?.()
  const rssBefore = process.memoryUsage().rss
  let rssPeak = rssBefore
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss)
  }, 20)
  const started = performance.now()
  const res = await fetch(`${server.url}/v1/apps/bench-app/versions`, {
    method: 'POST',
    body,
    duplex: 'half',
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
  } as RequestInit)
  const seconds = (performance.now() - started) / 1000
  clearInterval(sampler)
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`)
  await origin.stop()
  return { seconds, rssBefore, rssPeak }
}

let s3: S3TestServer | undefined
try {
  for (const backend of backends) {
    let blobs: BlobLocation = { kind: 'fs' }
    if (backend === 's3') {
      s3 ??= await startS3()
      blobs = s3.location(`bench-${Date.now()}`)
    }
    const { seconds, rssBefore, rssPeak } = await benchUpload(blobs)
    const where =
      backend === 'disk'
        ? "fsync'd to the data dir"
        : `to ${s3?.kind === 'radosgw' ? 'radosgw on 127.0.0.1' : (s3?.endpoint ?? 'AWS S3')}, multipart`
    console.log(`upload of ${mib} MiB, ${backend} (one file, streamed, SHA-1/256/512 on node:crypto, ${where}):`)
    console.log(`  ${(mib / seconds).toFixed(0)} MiB/s, ${seconds.toFixed(2)} s`)
    console.log(
      `  process RSS grew by ${((rssPeak - rssBefore) / MiB).toFixed(1)} MiB at most (${(rssBefore / MiB).toFixed(0)} → ${(rssPeak / MiB).toFixed(0)} MiB)`,
    )
  }
} finally {
  await s3?.stop()
}

const hashed = new Uint8Array(64 * 1024 * 1024)
const jsStart = performance.now()
jsDigestStream().update(hashed)
const jsSeconds = (performance.now() - jsStart) / 1000

console.log(`portable digests (browser sandbox, @noble/hashes): ${(64 / jsSeconds).toFixed(0)} MiB/s for SHA-1+256+512`)
