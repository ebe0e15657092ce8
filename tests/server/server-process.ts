/**
 * A Ferry server started the way `npm run server` starts it: `server/runtime/node.ts` in a child
 * process, configured only through FERRY_* variables (so with the production defaults, the
 * 600 000 PBKDF2 iterations included). For tests whose subject is "several processes".
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'
import type { BlobLocation } from '../../server/runtime/config.ts'
import { JWT_SECRET, SIGNUP_KEY } from './helpers.ts'

export interface ServerProcess {
  url: string
  /** `http://127.0.0.1:<port>/metrics` when started with `metrics: true`. */
  metricsUrl: string | undefined
  child: ChildProcess
  /** The log lines (parsed JSON) written up to and including `listening`. */
  startLog: Array<{ level?: number; msg?: string }>
  /** SIGTERM (graceful shutdown), resolved once the process has exited. */
  stop(): Promise<void>
}

export interface ServerProcessOptions {
  dataDir: string
  databaseUrl?: string | undefined
  redisUrl?: string | undefined
  /** Default: files under the data dir. */
  blobs?: BlobLocation | undefined
  /** Serve Prometheus metrics on a free port of their own. */
  metrics?: boolean
  /** More FERRY_* variables (FERRY_HOST among them), set last. */
  env?: Record<string, string>
}

/** A port nothing listens on right now (FERRY_METRICS_PORT takes no 0). */
async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done))
  const address = probe.address()
  await new Promise<void>((done) => probe.close(() => done()))
  if (typeof address !== 'object' || !address) throw new Error('no free port')
  return address.port
}

/** The FERRY_* variables an operator would set for `blobs`. */
export function blobEnvironment(blobs: BlobLocation | undefined): Record<string, string> {
  if (!blobs || blobs.kind === 'fs') return {}
  return {
    FERRY_BLOB_URL: `s3://${blobs.bucket}/${blobs.prefix}`,
    FERRY_S3_FORCE_PATH_STYLE: blobs.forcePathStyle ? 'on' : 'off',
    ...(blobs.endpoint ? { FERRY_S3_ENDPOINT: blobs.endpoint } : {}),
    ...(blobs.region ? { FERRY_S3_REGION: blobs.region } : {}),
    ...(blobs.credentials
      ? {
          FERRY_S3_ACCESS_KEY_ID: blobs.credentials.accessKeyId,
          FERRY_S3_SECRET_ACCESS_KEY: blobs.credentials.secretAccessKey,
        }
      : {}),
  }
}

/** Starts the server process; resolves with its URL once it logs `listening`. */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env }
  // Only the variables set below configure it; the test runner's own FERRY_TEST_* stay out.
  for (const name of Object.keys(env)) if (name.startsWith('FERRY_')) delete env[name]
  Object.assign(env, {
    FERRY_HOST: '127.0.0.1',
    FERRY_PORT: '0',
    FERRY_DATA_DIR: options.dataDir,
    FERRY_LOG_LEVEL: 'info',
    FERRY_SIGNUP_KEY: SIGNUP_KEY,
    FERRY_JWT_SECRET: JWT_SECRET,
    FERRY_MAX_UPLOAD_BYTES: String(64 * 1024 * 1024),
    ...(options.databaseUrl ? { FERRY_DATABASE_URL: options.databaseUrl } : {}),
    ...(options.redisUrl ? { FERRY_REDIS_URL: options.redisUrl } : {}),
    ...(options.metrics ? { FERRY_METRICS_PORT: String(await freePort()) } : {}),
    ...blobEnvironment(options.blobs),
    ...options.env,
  })
  const entry = join(import.meta.dirname, '..', '..', 'server', 'runtime', 'node.ts')
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { stdio: ['ignore', 'pipe', 'pipe'], env })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const startLog: ServerProcess['startLog'] = []
  const started = await new Promise<{ url: string; metricsUrl: string | undefined }>((resolve, reject) => {
    let out = ''
    let metricsUrl: string | undefined
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const lines = out.split('\n')
      out = lines.pop() ?? ''
      for (const line of lines) {
        let entry: { level?: number; msg?: string; url?: string }
        try {
          entry = JSON.parse(line) as { level?: number; msg?: string; url?: string }
        } catch {
          continue
        }
        if (!startLog.some((e) => e.msg === 'listening')) startLog.push(entry)
        if (entry.msg === 'metrics') metricsUrl = entry.url
        if (entry.msg === 'listening' && entry.url) resolve({ url: entry.url, metricsUrl })
      }
    })
    child.once('exit', (code) => reject(new Error(`server process exited with ${code} before listening:\n${stderr}`)))
  })
  return {
    ...started,
    child,
    startLog,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}
