import type { PersistentSandbox, SandboxEvent } from '../../server/runtime/browser-persist.ts'
import type { FromWorker, ToWorker } from '../../server/runtime/sandbox-worker.ts'
import { DEMO_LOGIN } from '../../server/demo/seed.ts'

/**
 * The sandbox's address. It never resolves (`.test` is reserved), so nothing can reach the
 * network by accident: requests to it are answered in the browser by `sandboxFetch`.
 */
export const SANDBOX_ORIGIN = 'https://sandbox.ferry.test'

export const isSandboxUrl = (url: string) => url === SANDBOX_ORIGIN || url.startsWith(`${SANDBOX_ORIGIN}/`)

/** What the page uses of the sandbox, which runs in a Web Worker (`server/runtime/sandbox-worker.ts`). */
export type SandboxClient = Pick<PersistentSandbox, 'restored' | 'login' | 'fetch' | 'reset' | 'subscribe'> & {
  /** The sandbox's signup key (the worker holds it). */
  signupKey(): Promise<string>
}

let starting: Promise<SandboxClient> | undefined

/**
 * Starts the sandbox once per page (the dashboard and the reference share it). The server code,
 * sql.js and its wasm (served from this site) load only when this is called, in a worker.
 * A failed start is forgotten, so calling again retries.
 */
export function loadSandbox(): Promise<SandboxClient> {
  starting ??= start().catch((error: unknown) => {
    starting = undefined
    throw error
  })
  return starting
}

async function fetchWasm(): Promise<ArrayBuffer> {
  const res = await fetch(new URL('sql.js/dist/sql-wasm-browser.wasm', import.meta.url))
  if (!res.ok) throw new Error(`the database engine did not load (HTTP ${res.status})`)
  return res.arrayBuffer()
}

const NULL_BODY_STATUS = new Set([101, 204, 205, 304])

async function start(): Promise<SandboxClient> {
  const wasmBinary = await fetchWasm()
  const worker = new Worker(new URL('../../server/runtime/sandbox-worker.ts', import.meta.url), {
    type: 'module',
    name: 'ferry-sandbox',
  })
  const post = (message: ToWorker, transfer: Transferable[] = []) => worker.postMessage(message, transfer)
  const listeners = new Set<(event: SandboxEvent) => void>()
  const pending = new Map<number, { resolve: (m: FromWorker) => void; reject: (e: Error) => void }>()
  let nextId = 1
  const call = (message: ToWorker & { id: number }, transfer?: Transferable[]) =>
    new Promise<FromWorker>((resolve, reject) => {
      pending.set(message.id, { resolve, reject })
      post(message, transfer)
    })

  const restored = await new Promise<boolean>((resolve, reject) => {
    // Before the sandbox opens this fails the start; after, it fails what is waiting for an answer.
    worker.onerror = (event) => {
      event.preventDefault()
      const error = new Error(`the sandbox worker failed: ${event.message || 'it could not load'}`)
      reject(error)
      for (const waiting of pending.values()) waiting.reject(error)
      pending.clear()
    }
    worker.onmessage = ({ data: m }: MessageEvent<FromWorker>) => {
      if (m.kind === 'opened') resolve(m.restored)
      else if (m.kind === 'open-failed') reject(new Error(m.message))
      else if (m.kind === 'event') listeners.forEach((listener) => listener(m.event))
      else {
        const waiting = pending.get(m.id)
        pending.delete(m.id)
        if (m.kind === 'failed') waiting?.reject(new Error(m.message))
        else waiting?.resolve(m)
      }
    }
    post({ kind: 'open', wasmBinary, publicUrl: SANDBOX_ORIGIN }, [wasmBinary])
  }).catch((error: unknown) => {
    worker.terminate()
    throw error
  })

  return {
    restored,
    login: DEMO_LOGIN,
    async fetch(req: Request): Promise<Response> {
      const body = req.method === 'GET' || req.method === 'HEAD' ? null : await req.arrayBuffer()
      const m = await call(
        { kind: 'fetch', id: nextId++, method: req.method, url: req.url, headers: [...req.headers], body },
        body ? [body] : [],
      )
      if (m.kind !== 'response') throw new Error(`the sandbox answered ${m.kind} to a request`)
      return new Response(NULL_BODY_STATUS.has(m.status) ? null : m.body, {
        status: m.status,
        statusText: m.statusText,
        headers: m.headers,
      })
    },
    async reset(): Promise<void> {
      await call({ kind: 'reset', id: nextId++ })
    },
    async signupKey(): Promise<string> {
      const m = await call({ kind: 'signup-key', id: nextId++ })
      if (m.kind !== 'signup-key') throw new Error(`the sandbox answered ${m.kind} to a question for its signup key`)
      return m.value
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

/** A `fetch` for sandbox URLs (swagger-client's `userFetch` shape: url and init). */
export async function sandboxFetch(url: string, init?: RequestInit): Promise<Response> {
  const sandbox = await loadSandbox()
  return sandbox.fetch(new Request(url, init))
}
