/**
 * Sends a built request to the sandbox in this browser or to the reader's server, and reads the
 * answer into what the panel shows: status, headers, time, and the body as text or JSON (or its
 * size, when it is binary).
 */
import { sandboxFetch } from '../../demo/sandbox-loader'
import type { TargetKind } from './session'

export interface Answer {
  status: number
  statusText: string
  ms: number
  headers: [string, string][]
  contentType: string | null
  bytes: number
  /** The body as text when its type is textual. */
  text?: string
  /** The body parsed, when its type is JSON and it parses. */
  json?: unknown
  /** A cross-origin redirect the browser answers without showing it. */
  opaqueRedirect?: boolean
}

const TEXTUAL = /json|text\/|xml|yaml|javascript/i

export async function send(target: TargetKind, url: string, init: RequestInit): Promise<Answer> {
  const started = performance.now()
  const response =
    target === 'sandbox'
      ? await sandboxFetch(url, init)
      : await fetch(url, { ...init, mode: 'cors', credentials: 'omit', redirect: 'manual' })
  if (response.type === 'opaqueredirect') {
    return {
      status: 0,
      statusText: 'redirect',
      ms: Math.round(performance.now() - started),
      headers: [],
      contentType: null,
      bytes: 0,
      opaqueRedirect: true,
    }
  }
  const buffer = await response.arrayBuffer()
  const ms = Math.round(performance.now() - started)
  const contentType = response.headers.get('content-type')
  const answer: Answer = {
    status: response.status,
    statusText: response.statusText,
    ms,
    headers: [...response.headers],
    contentType,
    bytes: buffer.byteLength,
  }
  if (buffer.byteLength > 0 && TEXTUAL.test(contentType ?? '')) {
    answer.text = new TextDecoder().decode(buffer)
    if (/json/i.test(contentType ?? '')) {
      try {
        answer.json = JSON.parse(answer.text)
      } catch {
        // Shown as text; the schema check says it is not JSON.
      }
    }
  }
  return answer
}

/** What to tell the reader when the request never got an answer. */
export function unreachable(target: TargetKind, url: string, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error)
  if (target === 'sandbox') return `The sandbox did not answer: ${reason}`
  return `No answer from ${new URL(url).origin}: the server is not running there, or it does not let this site (${window.location.origin}) read its answers. Start it with FERRY_CORS_ORIGINS=${window.location.origin} (${reason}).`
}
