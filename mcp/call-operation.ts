/**
 * @module call_operation: one request to the sandbox or a real server, its answer read (up to a
 * bound) and checked against the contract. A write to a real server is refused before anything
 * is sent unless the user started `ferry mcp --allow-writes`.
 */
import type { OperationInfo } from './contract.ts'
import { operationInit, operationPath, type OperationArgs } from './operation-request.ts'
import { checkAnswer, isJsonType, type ContractCheck } from '../contract/answer.ts'
import type { Target } from './target.ts'

/** Bodies above this are cut (and not schema-checked): an artifact download must not fill memory. */
export const MAX_BODY_BYTES = 1024 * 1024

export interface CallResult {
  target: Target['name']
  request: { method: string; url: string }
  status: number
  contentType: string
  /** Parsed JSON, text, or a note for binary content. */
  body: unknown
  location?: string
  bytes: number
  truncated: boolean
  contract: ContractCheck
}

export class WriteRefused extends Error {}

async function readCapped(res: Response): Promise<{ data: Uint8Array; bytes: number; truncated: boolean }> {
  if (!res.body) return { data: new Uint8Array(), bytes: 0, truncated: false }
  const chunks: Uint8Array[] = []
  let bytes = 0
  const reader = res.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    const room = MAX_BODY_BYTES - bytes
    chunks.push(value.length > room ? value.subarray(0, room) : value)
    bytes += Math.min(value.length, room)
    if (value.length > room) {
      await reader.cancel()
      return { data: Buffer.concat(chunks), bytes, truncated: true }
    }
  }
  return { data: Buffer.concat(chunks), bytes, truncated: false }
}

const isText = (type: string) => isJsonType(type) || type.startsWith('text/') || /[/+](xml|yaml|x-yaml)$/.test(type)

export async function callOperation(info: OperationInfo, args: OperationArgs, target: Target): Promise<CallResult> {
  const op = info.spec
  const path = operationPath(op, args)
  const init = operationInit(op, args)
  const method = op.method.toUpperCase()
  if (method !== 'GET' && !target.allowsWrites) {
    throw new WriteRefused(
      `refused: ${op.operationId} (${method} ${op.path}) writes, and writes to ${target.label} are off. Nothing was sent. Call it with target "sandbox", or restart the server as \`ferry mcp --allow-writes\` to let it change the real server.`,
    )
  }
  const res = await target.send(path, init)
  const contentType = (res.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  const { data, bytes, truncated } = await readCapped(res)
  const raw = new TextDecoder().decode(data)
  let json: unknown
  let jsonError: string | undefined
  if (isJsonType(contentType) && bytes > 0 && !truncated) {
    try {
      json = JSON.parse(raw)
    } catch (error) {
      jsonError = error instanceof Error ? error.message : String(error)
    }
  }
  const body =
    json !== undefined
      ? json
      : bytes === 0
        ? null
        : isText(contentType)
          ? raw
          : `<${bytes}${truncated ? '+' : ''} bytes of ${contentType || 'untyped'} content>`
  const location = res.headers.get('location')
  return {
    target: target.name,
    request: { method, url: new URL(path.replace(/^\//, ''), target.base).href },
    status: res.status,
    contentType,
    body,
    ...(location ? { location } : {}),
    bytes,
    truncated,
    contract: checkAnswer(op, {
      status: res.status,
      contentType,
      ...(json !== undefined ? { json } : {}),
      ...(jsonError !== undefined ? { jsonError } : {}),
      bytes,
      truncated,
    }),
  }
}
