/**
 * A real S3 server for the object-storage tests: Debian's Ceph radosgw on a one-node cluster
 * (one ceph-mon, one ceph-osd on memstore, radosgw), everything under one temp dir, on free
 * 127.0.0.1 ports, started in the background and stopped by pid (TERM, wait, KILL). Ceph's own
 * auth is off; radosgw still checks every S3 signature. Starts in about 3–5 s.
 *
 * Install: `apt-get install -y --no-install-recommends radosgw ceph-mon ceph-osd`.
 *
 * Or run the same tests against any S3-compatible endpoint (AWS S3, R2, MinIO, Garage…) by
 * setting, instead of installing Ceph:
 *   FERRY_TEST_S3_BUCKET             an existing bucket the tests may write to (required)
 *   FERRY_TEST_S3_ENDPOINT           e.g. http://127.0.0.1:9000 (unset: AWS S3)
 *   FERRY_TEST_S3_REGION             default us-east-1
 *   FERRY_TEST_S3_ACCESS_KEY_ID, FERRY_TEST_S3_SECRET_ACCESS_KEY (unset: the AWS SDK's default chain)
 *   FERRY_TEST_S3_FORCE_PATH_STYLE   on or off (default: on when an endpoint is given)
 * The tests then work under a fresh `ferry-test-<random>/` prefix and delete it afterwards. The
 * test that cuts the connection mid-upload relays TCP and needs an http:// endpoint.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import {
  AbortMultipartUploadCommand,
  CreateBucketCommand,
  DeleteObjectsCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3'
import type { S3Location } from '../server/runtime/config.ts'
import { environmentLocation } from './s3-location.ts'

const run = promisify(execFile)
const BINARIES = [
  '/usr/bin/radosgw',
  '/usr/bin/ceph-mon',
  '/usr/bin/ceph-osd',
  '/usr/bin/ceph',
  '/usr/bin/radosgw-admin',
  '/usr/bin/monmaptool',
]
export const INSTALL_HINT = 'apt-get install -y --no-install-recommends radosgw ceph-mon ceph-osd'

export interface S3TestServer {
  /** `radosgw` (started here) or `environment` (FERRY_TEST_S3_*). */
  kind: 'radosgw' | 'environment'
  endpoint: string | undefined
  /** Where a test's blobs go: a fresh prefix under this run's prefix. */
  location(name: string): S3Location
  /** A client for checks the blob store does not expose (ListMultipartUploads…). */
  client: S3Client
  bucket: string
  /** Objects and multipart uploads under a location's prefix. */
  objects(location: S3Location): Promise<string[]>
  uploads(location: S3Location): Promise<string[]>
  stop(): Promise<void>
}

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))))
    })
  })
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  logs: () => Promise<string>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms\n${await logs()}`)
    await sleep(50)
  }
}

/** TERM, up to 3 s to exit (radosgw may take ~7 s), then KILL. */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((done) => child.once('exit', done))
  child.kill('SIGTERM')
  if (await Promise.race([exited.then(() => true), sleep(3000).then(() => false)])) return
  child.kill('SIGKILL')
  await exited
}

function helpers(client: S3Client, bucket: string) {
  const keysUnder = async (prefix: string) => {
    const keys: string[] = []
    let ContinuationToken: string | undefined
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken }))
      keys.push(...(page.Contents ?? []).map((o) => o.Key ?? ''))
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
    } while (ContinuationToken)
    return keys.sort()
  }
  const uploadsUnder = async (prefix: string) =>
    (await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix }))).Uploads ?? []
  return {
    keysUnder,
    uploadsUnder,
    objects: async (location: S3Location) =>
      (await keysUnder(location.prefix)).map((k) => k.slice(location.prefix.length)),
    uploads: async (location: S3Location) =>
      (await uploadsUnder(location.prefix)).map((u) => (u.Key ?? '').slice(location.prefix.length)).sort(),
  }
}

function fromEnvironment(env: Record<string, string | undefined>): S3TestServer {
  const run = environmentLocation(env)
  const { bucket, endpoint, region, credentials, forcePathStyle, prefix: runPrefix } = run
  const client = new S3Client({
    ...(endpoint ? { endpoint } : {}),
    region,
    forcePathStyle,
    ...(credentials ? { credentials } : {}),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
  const location = (name: string): S3Location => ({ ...run, prefix: `${runPrefix}${name}/` })
  const { objects, uploads, keysUnder, uploadsUnder } = helpers(client, bucket)
  return {
    kind: 'environment',
    endpoint,
    location,
    client,
    bucket,
    objects,
    uploads,
    async stop() {
      // Leave the user's bucket as it was: drop everything this run wrote.
      for (const u of await uploadsUnder(runPrefix)) {
        await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: u.Key, UploadId: u.UploadId }))
      }
      const keys = await keysUnder(runPrefix)
      for (let i = 0; i < keys.length; i += 1000) {
        await client.send(
          new DeleteObjectsCommand({
            Bucket: bucket,
            Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })) },
          }),
        )
      }
      client.destroy()
    },
  }
}

/**
 * The S3 server for one test file: the endpoint named by FERRY_TEST_S3_* if set, otherwise a
 * fresh radosgw. Throws (never skips) when neither is available.
 */
export async function startS3(env: Record<string, string | undefined> = process.env): Promise<S3TestServer> {
  if (env.FERRY_TEST_S3_BUCKET) return fromEnvironment(env)
  const missing = BINARIES.filter((b) => !existsSync(b))
  if (missing.length) {
    throw new Error(
      `The S3 tests need Ceph's radosgw (${missing.join(', ')} missing): install it with\n  ${INSTALL_HINT}\n` +
        'or point them at an S3-compatible endpoint with FERRY_TEST_S3_BUCKET, FERRY_TEST_S3_ENDPOINT, … (see services/s3-server.ts).',
    )
  }
  const dir = await mkdtemp(join(tmpdir(), 'ferry-ceph-'))
  const conf = join(dir, 'ceph.conf')
  const children: ChildProcess[] = []
  const logs = async () => {
    const parts: string[] = []
    for (const name of ['mon.a', 'osd.0', 'client.rgw']) {
      const text = await readFile(join(dir, 'log', `${name}.log`), 'utf8').catch(() => '')
      parts.push(`--- ${name} (last lines)\n${text.split('\n').slice(-15).join('\n')}`)
    }
    return parts.join('\n')
  }
  const daemon = (binary: string, args: string[]) => {
    const child = spawn(binary, ['-c', conf, '-f', ...args], { stdio: 'ignore' })
    children.push(child)
    return child
  }
  const stopAll = async () => {
    // The data is thrown away with the temp dir, so the daemons need not stop in order.
    await Promise.all(children.map(stopProcess))
    await rm(dir, { recursive: true, force: true })
  }
  try {
    const [monPort, rgwPort] = [await freePort(), await freePort()]
    // Ceph's daemons take the first free port of this range; a random base keeps parallel runs apart.
    const msgrBase = 20000 + Math.floor(Math.random() * 20000)
    const fsid = randomUUID()
    for (const sub of ['run', 'log', 'mon', 'osd/ceph-0', 'rgw']) await mkdir(join(dir, sub), { recursive: true })
    await writeFile(
      conf,
      `[global]
fsid = ${fsid}
mon host = v2:127.0.0.1:${monPort}
public addr = 127.0.0.1
auth cluster required = none
auth service required = none
auth client required = none
keyring = /dev/null
ms mon client mode = crc secure
ms bind msgr1 = false
ms bind port min = ${msgrBase}
ms bind port max = ${msgrBase + 200}
paxos propose interval = 0.05
run dir = ${dir}/run
admin socket = ${dir}/run/$name.asok
log file = ${dir}/log/$name.log
pid file = ${dir}/run/$name.pid
mon data = ${dir}/mon/$cluster-$id
osd data = ${dir}/osd/$cluster-$id
osd objectstore = memstore
memstore device bytes = 4294967296
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
mon warn on pool no redundancy = false
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
rgw frontends = beast endpoint=127.0.0.1:${rgwPort}
rgw data = ${dir}/rgw
`,
    )
    await run('monmaptool', [
      '--create',
      '--fsid',
      fsid,
      '--addv',
      'a',
      `[v2:127.0.0.1:${monPort}]`,
      join(dir, 'monmap'),
    ])
    await run('ceph-mon', ['-c', conf, '--mkfs', '-i', 'a', '--monmap', join(dir, 'monmap')])
    daemon('ceph-mon', ['-i', 'a'])
    const ceph = (...args: string[]) => run('ceph', ['-c', conf, '--connect-timeout', '10', ...args])
    const osdUuid = randomUUID()
    await ceph('osd', 'new', osdUuid)
    await run('ceph-osd', ['-c', conf, '-i', '0', '--mkfs', '--osd-uuid', osdUuid])
    daemon('ceph-osd', ['-i', '0'])
    await waitFor('osd.0 up', async () => (await ceph('osd', 'dump')).stdout.includes('osd.0 up'), 30_000, logs)
    const accessKeyId = `FERRYTEST${randomUUID().replace(/-/g, '').slice(0, 11).toUpperCase()}`
    const secretAccessKey = randomUUID() + randomUUID()
    await run('radosgw-admin', [
      '-c',
      conf,
      'user',
      'create',
      '--uid',
      'ferry',
      '--display-name',
      'Ferry tests',
      '--access-key',
      accessKeyId,
      '--secret',
      secretAccessKey,
    ])
    daemon('radosgw', ['-n', 'client.rgw'])
    const endpoint = `http://127.0.0.1:${rgwPort}`
    await waitFor('radosgw answering HTTP', async () => (await fetch(endpoint)).status > 0, 30_000, logs)
    const bucket = 'ferry-test'
    const region = 'us-east-1'
    const credentials = { accessKeyId, secretAccessKey }
    const client = new S3Client({
      endpoint,
      region,
      forcePathStyle: true,
      credentials,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    })
    await client.send(new CreateBucketCommand({ Bucket: bucket }))
    const { objects, uploads } = helpers(client, bucket)
    return {
      kind: 'radosgw',
      endpoint,
      client,
      bucket,
      objects,
      uploads,
      location: (name) => ({
        kind: 's3',
        bucket,
        prefix: `${name}/`,
        endpoint,
        region,
        credentials,
        forcePathStyle: true,
        presignSeconds: 900,
      }),
      async stop() {
        client.destroy()
        await stopAll()
      },
    }
  } catch (error) {
    await stopAll()
    throw error
  }
}
