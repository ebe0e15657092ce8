import type { PersistentSandbox } from '../../server/runtime/browser-persist.ts'

/**
 * The sandbox's address. It never resolves (`.test` is reserved), so nothing can reach the
 * network by accident: requests to it are answered in the page by `sandboxFetch`.
 */
export const SANDBOX_ORIGIN = 'https://sandbox.ferry.test'

export const isSandboxUrl = (url: string) => url === SANDBOX_ORIGIN || url.startsWith(`${SANDBOX_ORIGIN}/`)

let starting: Promise<PersistentSandbox> | undefined

/**
 * Starts the sandbox once per page (the dashboard and the reference share it). The server code,
 * sql.js and its wasm (served from this site, bundled by webpack) load only when this is called.
 * A failed start is forgotten, so calling again retries.
 */
export function loadSandbox(): Promise<PersistentSandbox> {
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

async function start(): Promise<PersistentSandbox> {
  const [persist, wasmBinary] = await Promise.all([import('../../server/runtime/browser-persist.ts'), fetchWasm()])
  return persist.openPersistentSandbox({ store: persist.indexedDbStateStore(), wasmBinary, publicUrl: SANDBOX_ORIGIN })
}

/** A `fetch` for sandbox URLs (swagger-client's `userFetch` shape: url and init). */
export async function sandboxFetch(url: string, init?: RequestInit): Promise<Response> {
  const sandbox = await loadSandbox()
  return sandbox.fetch(new Request(url, init))
}
