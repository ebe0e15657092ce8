/**
 * Update checks through a real cache: Debian's Varnish (services/varnish-server.ts) in front of
 * the real Node server (in-process, 127.0.0.1, temp data dir, FERRY_UPDATE_CACHE_SECONDS and
 * FERRY_PURGE_URL set). N simulated devices, on many versions, channels, platforms, architectures
 * and updater formats, some of them on targets with a partial rollout, each check `--checks`
 * times; mid-run a version is pulled (a purge). Prints the checks, the requests the origin
 * answered (per 1,000 checks), the distinct answers the devices received, and the cache's hit
 * ratio (responses Varnish served from its store).
 * Usage: npm run bench:edge [-- --devices 2000 --checks 5 --concurrency 32 --ttl 300]
 */
import { parseArgs } from 'node:util'
import { edgeVcl, freePort, startVarnish } from '../services/varnish-server.ts'
import { benchTeam, startBenchOrigin } from './bench-origin.ts'

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '2000' },
    checks: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '32' },
    ttl: { type: 'string', default: '300' },
  },
})
const count = (name: string, raw: string, max: number) => {
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new Error(`--${name} must be an integer from 1 to ${max}, got ${raw}`)
  return n
}
const DEVICES = count('devices', values.devices, 1_000_000)
const CHECKS = count('checks', values.checks, 1000)
const CONCURRENCY = count('concurrency', values.concurrency, 1000)
const TTL = count('ttl', values.ttl, 86400)

/** A small deterministic generator, so two runs simulate the same devices. */
function random(seed: number): () => number {
  let s = seed
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648
    return s / 2147483648
  }
}
const rnd = random(42)
const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!

const CHANNELS = ['stable', 'beta'] as const
const ARCHS = ['x64', 'arm64'] as const
const PLATFORMS = { windows: 'exe', darwin: 'zip', linux: 'AppImage' } as const
type Platform = keyof typeof PLATFORMS
const VERSIONS = ['1.0.0', '1.1.0', '1.2.0', '1.3.0', '1.4.0', '1.5.0', '1.6.0', '1.7.0']
/** On these targets the newest version is at 10 %: their answers depend on the device. */
const RAMPING = (channel: string, platform: string, arch: string) =>
  channel === 'beta' && arch === 'x64' && platform !== 'linux'

/** The URL a device of each updater format asks (Ferry JSON by query, the others at their own paths). */
const FORMATS: Record<Platform, Array<(c: string, a: string, v: string) => string>> = {
  windows: [
    (c, a, v) => `/update?version=${v}&channel=${c}&platform=windows&arch=${a}&format=ferry`,
    (c, a, v) => `/squirrel/${c}/${a}/RELEASES?localVersion=${v}`,
    (c, a, v) => `/electron-updater/${c}/windows/${a}/${v}/latest.yml`,
    (c, a, v) => `/velopack/${c}/windows/${a}/releases.${c}.json?localVersion=${v}`,
  ],
  darwin: [
    (c, a, v) => `/update?version=${v}&channel=${c}&platform=darwin&arch=${a}&format=ferry`,
    (c, a, v) => `/squirrel-mac/${c}/${a}?version=${v}`,
    (c, a, v) => `/sparkle/${c}/darwin/${a}/appcast.xml?version=${v}`,
    (c, a, v) => `/tauri/${c}/darwin/${a === 'x64' ? 'x86_64' : 'aarch64'}/${v}`,
  ],
  linux: [
    (c, a, v) => `/update?version=${v}&channel=${c}&platform=linux&arch=${a}&format=ferry`,
    (c, a, v) => `/electron-updater/${c}/linux/${a}/${v}/latest-linux.yml`,
  ],
}

const varnishPort = await freePort()
const origin = await startBenchOrigin({
  telemetry: false,
  edgeCaching: { cacheSeconds: TTL, staleSeconds: 30 },
  purge: { url: `http://127.0.0.1:${varnishPort}/`, method: 'PURGE' },
  metrics: { host: '127.0.0.1', port: await freePort() },
})
const { server } = origin
const varnish = await startVarnish(edgeVcl([new URL(server.url).host]), varnishPort)
try {
  const { token, call, json } = await benchTeam(server.url, {
    channels: CHANNELS,
    platforms: Object.keys(PLATFORMS),
    archs: ARCHS,
  })
  await call('/v1/apps', json({ slug: 'fleet', name: 'Fleet' }))
  let pullable = ''
  for (const channel of CHANNELS) {
    for (const [platform, ext] of Object.entries(PLATFORMS)) {
      for (const arch of ARCHS) {
        for (const [i, version] of VERSIONS.entries()) {
          const form = new FormData()
          const newest = i === VERSIONS.length - 1
          for (const [k, v] of Object.entries({ version, channel, platform, arch, published: 'true' })) form.set(k, v)
          if (newest && RAMPING(channel, platform, arch)) form.set('rolloutPercentage', '10')
          form.append('files', new File([`${platform} ${arch} ${version}`], `Fleet-${version}-${arch}.${ext}`))
          const res = await call('/v1/apps/fleet/versions', {
            method: 'POST',
            body: form,
            headers: { authorization: `Bearer ${token}` },
          })
          if (newest && channel === 'stable' && platform === 'windows' && arch === 'x64')
            pullable = ((await res.json()) as { id: string }).id
        }
      }
    }
  }

  const devices = Array.from({ length: DEVICES }, (_, i) => {
    const platform = pick(Object.keys(PLATFORMS) as Platform[])
    const channel = pick(CHANNELS)
    const arch = pick(ARCHS)
    return {
      id: `device-${i}`,
      url: `/v1/apps/fleet${pick(FORMATS[platform])(channel, arch, pick(VERSIONS))}`,
      ramping: RAMPING(channel, platform, arch),
    }
  })
  const updateOps = new Set([
    'checkForUpdate',
    'getSquirrelReleases',
    'getSquirrelMacUpdate',
    'getElectronUpdaterFeed',
    'getTauriUpdate',
    'getVelopackFile',
    'getSparkleAppcast',
  ])
  const originRequests = async () => {
    let sum = 0
    for (const line of (await (await fetch(server.metricsUrl ?? '')).text()).split('\n')) {
      const op = /^ferry_http_requests_total\{[^}]*operation="([^"]+)"/.exec(line)?.[1]
      if (op && updateOps.has(op)) sum += Number(line.split(' ').pop())
    }
    return sum
  }

  const before = await originRequests()
  const answers = new Set<string>()
  const sharedUrls = new Set<string>()
  let checks = 0
  let hits = 0
  let deviceDependent = 0
  const queue = Array.from({ length: CHECKS }, () => devices).flat()
  const started = performance.now()
  const pullAt = Math.floor(queue.length / 2)
  let next = 0
  const worker = async () => {
    while (next < queue.length) {
      const i = next++
      if (i === pullAt)
        await call(`/v1/apps/fleet/versions/${pullable}/pull`, json({ reason: 'bench: a pull mid-run' }))
      const device = queue[i]!
      const res = await fetch(varnish.url + device.url, { headers: { 'x-ferry-device-id': device.id } })
      const body = await res.text()
      if (res.status >= 400) throw new Error(`${device.url} answered ${res.status}: ${body}`)
      checks++
      // Varnish's X-Varnish names two transactions when the object came from its store.
      if ((res.headers.get('x-varnish') ?? '').trim().includes(' ')) hits++
      if (res.headers.get('cache-control') === 'no-store') deviceDependent++
      else sharedUrls.add(device.url)
      answers.add(`${device.url.replace(/\?.*$/, '')} ${res.status} ${body}`)
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  const seconds = (performance.now() - started) / 1000
  const origin = (await originRequests()) - before

  console.log(
    `Ferry edge benchmark: ${DEVICES} devices x ${CHECKS} checks through Varnish (${CONCURRENCY} at once), FERRY_UPDATE_CACHE_SECONDS=${TTL}, one pull mid-run`,
  )
  console.log(
    `3 platforms, 2 channels, 2 archs, ${VERSIONS.length} versions, 7 update endpoints; 4 of 12 targets mid-rollout (10 %)`,
  )
  console.log(`checks:                          ${checks} in ${seconds.toFixed(1)} s`)
  console.log(`answered no-store (per device):  ${deviceDependent}`)
  console.log(`origin requests:                 ${origin}`)
  console.log(`origin requests per 1,000 checks: ${((origin / checks) * 1000).toFixed(1)}`)
  console.log(`distinct answers:                ${answers.size}`)
  console.log(`distinct URLs answered shared:   ${sharedUrls.size}`)
  console.log(`cache hit ratio:                 ${((hits / checks) * 100).toFixed(1)} %`)
} finally {
  await varnish.stop()
  await origin.stop()
}
