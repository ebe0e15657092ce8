/**
 * How long the server takes to accept a signed targets file and re-sign snapshot and timestamp:
 * one listing 1 artifact (the baseline, in the same run) against one listing 1,000, on the real
 * Node server with SQLite in a temp data dir. Prints the median of `--runs` publishes of each.
 * Usage: npm run bench:tuf [-- --targets 1000] [-- --runs 5]
 */
import { parseArgs } from 'node:util'
import {
  buildRoot,
  expiresInDays,
  newKeyPem,
  nextTargets,
  publicKey,
  signWith,
  signingKey,
  type TargetArtifact,
} from '../lib/ferry-cli/tuf-metadata.ts'
import { benchTeam, startBenchOrigin } from './bench-origin.ts'

const { values } = parseArgs({
  options: { targets: { type: 'string', default: '1000' }, runs: { type: 'string', default: '5' } },
})
const TARGETS = Math.max(1, Number(values.targets))
const RUNS = Math.max(1, Number(values.runs))
/** Files per uploaded version (an upload takes at most 1000 parts). */
const PER_VERSION = 100

const origin = await startBenchOrigin({ maxUploadBytes: 64 * 1024 * 1024 })
try {
  const { call, json, token } = await benchTeam(origin.server.url, {
    channels: ['stable'],
    platforms: ['windows'],
    archs: ['x64'],
  })
  await call('/v1/apps', json({ slug: 'bench-tuf', name: 'Bench TUF' }))
  const artifacts: TargetArtifact[] = []
  for (let v = 0; artifacts.length < TARGETS; v++) {
    const form = new FormData()
    for (const [k, value] of Object.entries({
      version: `1.0.${v}`,
      channel: 'stable',
      platform: 'windows',
      arch: 'x64',
    }))
      form.set(k, value)
    for (let i = 0; i < Math.min(PER_VERSION, TARGETS - artifacts.length); i++)
      form.append('files', new File([`bytes ${v}.${i}`], `bench-1.0.${v}-part${i}.exe`))
    const res = await call('/v1/apps/bench-tuf/versions', {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    })
    const version = (await res.json()) as { id: string; artifacts: Array<{ id: string; size: number; sha256: string }> }
    for (const a of version.artifacts)
      artifacts.push({ versionId: version.id, artifactId: a.id, size: a.size, sha256: a.sha256 })
  }
  const online = await publicKey(await (await call('/v1/apps/bench-tuf/tuf/online-key.json')).text(), 'online key')
  const [rootKey, release] = [await signingKey(newKeyPem(), 'root'), await signingKey(newKeyPem(), 'release')]
  const root = buildRoot({
    version: 1,
    expires: expiresInDays(365),
    root: { keys: [rootKey], threshold: 1 },
    targets: { keys: [release], threshold: 1 },
    online,
  })
  signWith(root, [rootKey])
  await call('/v1/apps/bench-tuf/tuf/root.json', json(root.toJSON()))

  let previous: ReturnType<typeof nextTargets> | undefined
  async function publish(list: TargetArtifact[]): Promise<number> {
    const md = nextTargets(undefined, list, expiresInDays(30))
    // The next version, listing exactly `list`.
    const next = nextTargets(undefined, [], expiresInDays(30))
    Object.assign(next.signed, { version: (previous?.signed.version ?? 0) + 1, targets: md.signed.targets })
    signWith(next, [release])
    const body = JSON.stringify(next.toJSON())
    const started = performance.now()
    await call('/v1/apps/bench-tuf/tuf/targets.json', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    })
    previous = next
    return performance.now() - started
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0
  const one: number[] = []
  const many: number[] = []
  for (let r = 0; r < RUNS; r++) {
    one.push(await publish(artifacts.slice(0, 1)))
    many.push(await publish(artifacts))
  }
  const [a, b] = [median(one), median(many)]
  console.log(`targets with 1 file:       ${a.toFixed(1)} ms (median of ${RUNS})`)
  console.log(
    `targets with ${TARGETS} files: ${b.toFixed(1)} ms (median of ${RUNS}), ${(b / a).toFixed(1)}× the baseline`,
  )
} finally {
  await origin.stop()
}
