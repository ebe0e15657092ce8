/**
 * @module Browser entry: the same app on sql.js (WebAssembly SQLite) and in-memory blobs,
 * seeded with demo data. On /demo it runs in a Web Worker (`sandbox-worker.ts`), which hands each request to
 * `sandbox.fetch`. Nothing here (or below it) imports `node:`.
 *
 * Demo logins (see `seed.ts`): `demo@ferry.test` / `ferry-demo-password` (team admin) and
 * `grace@ferry.test` / `grace-demo-password` (team user who may upload Harbor Notes).
 * Demo data: apps `harbor-notes` (public; stable windows/x64 1.0.0 → 1.1.0 intermediate →
 * 1.2.0 critical, a 1.3.0 draft, a beta 1.3.0-beta.1 at 50 % rollout, darwin/universal and
 * linux/x64 builds) and `lighthouse-admin` (private).
 */
import { createApp } from '../app.ts'
import { randomSecret } from '../core/crypto.ts'
import { DEMO_LOGIN, DEMO_USER, seedDemo, seedDemoTraffic } from '../demo/seed.ts'
import { createMemoryBlobs } from '../storage/blobs/blobs-memory.ts'
import { openWasmDbHandle, type WasmDbOptions } from '../storage/drivers/sqlite-wasm.ts'

export { DEMO_LOGIN, DEMO_USER }

/** Everything a sandbox holds, to save it and start a sandbox from it again. */
export interface SandboxState {
  /** SQLite file image of the metadata database. */
  database: Uint8Array
  blobs: Array<{ key: string; data: Uint8Array }>
  /** Kept so that tokens and signed links issued before a reload stay valid. */
  signupKey: string
  jwtSecret: string
}

export interface SandboxOptions extends WasmDbOptions {
  /** Base of download URLs (default `http://sandbox.ferry.test`); every request's Host is answered. */
  publicUrl?: string
  /** Seed the demo team and apps (default true). */
  seed?: boolean
  /** PBKDF2 iterations; the sandbox is an in-memory demo, so it defaults to a quicker 10 000. */
  passwordIterations?: number
  /** Start from a saved state instead of an empty database (no seeding then). */
  state?: SandboxState
}

async function readAll(body: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(body).arrayBuffer())
}

export async function createSandbox(options: SandboxOptions = {}) {
  const { state } = options
  const handle = await openWasmDbHandle({ ...options, ...(state ? { data: state.database } : {}) })
  const db = handle.db
  const blobs = createMemoryBlobs()
  for (const blob of state?.blobs ?? []) await blobs.put(blob.key, blob.data)
  const signupKey = state?.signupKey ?? randomSecret(16)
  const jwtSecret = state?.jwtSecret ?? randomSecret(32)
  // Seeding replays past days of update checks; everything else runs on the real clock.
  let seedDay: Date | undefined
  // The sandbox answers its page, whatever its origin: a fixed base, so the Host is never read.
  const base = options.publicUrl ?? 'http://sandbox.ferry.test'
  const app = createApp({
    db,
    blobs,
    clock: () => seedDay ?? new Date(),
    config: {
      signupKey,
      jwtSecret,
      maxUploadBytes: 64 * 1024 * 1024,
      passwordIterations: options.passwordIterations ?? 10_000,
      version: 'sandbox',
      publicUrl: base,
    },
  })
  const request = async (path: string, init?: RequestInit) => app.fetch(new Request(new URL(path, base), init))
  const demo = state || options.seed === false ? undefined : await seedDemo(request, signupKey)
  if (demo)
    await seedDemoTraffic(request, (day) => {
      seedDay = day
    })
  return {
    /** Answers one request, e.g. from a service worker's `fetch` event. */
    fetch: (req: Request) => app.fetch(req),
    /** Convenience: a path (and init) instead of a Request. */
    request,
    signupKey,
    demo,
    login: DEMO_LOGIN,
    /** A copy of the database and blobs; call it while no request is being answered. */
    async exportState(): Promise<SandboxState> {
      const saved: SandboxState['blobs'] = []
      for (const { key } of await blobs.list()) {
        const blob = await blobs.get(key)
        if (blob) saved.push({ key, data: await readAll(blob.body) })
      }
      return { database: handle.exportImage(), blobs: saved, signupKey, jwtSecret }
    },
    async close() {
      await db.destroy()
    },
  }
}

export type Sandbox = Awaited<ReturnType<typeof createSandbox>>
