/**
 * @module Streams a multipart/form-data upload into the blob store: each file is hashed and
 * written chunk by chunk as it arrives (never held whole in memory), text fields are collected.
 * Any failure (too large, malformed, client gone, storage error) removes every blob this
 * request wrote before the error propagates, so a refused upload leaves nothing behind.
 */
import * as multipasta from 'multipasta'
import type { DigestStreamFactory, Digests } from './digests.ts'
import { HttpProblem, validationProblem, type FieldError } from './problem.ts'
import type { BlobStore, BlobWriter } from './storage/types.ts'

export interface ReceivedFile extends Digests {
  name: string
  size: number
  blobKey: string
}

export interface ReceivedUpload {
  /** Text fields by name, in arrival order. */
  fields: Map<string, string[]>
  files: ReceivedFile[]
  /** Problems found while receiving (a text field sent as a file, a refused file name…). */
  errors: FieldError[]
}

export interface ReceiveOptions {
  /** Largest request body in bytes; beyond it the upload is refused with 413. */
  maxBytes: number
  /** The multipart field whose parts are files; file parts under other names are refused. */
  fileField: string
  blobs: BlobStore
  digestStream: DigestStreamFactory
  newBlobKey: () => string
  /** Why a file name is refused, or `undefined`. */
  fileNameProblem: (name: string) => string | undefined
}

const MAX_PARTS = 1000
const MAX_FIELD_BYTES = 1024 * 1024

type ParserEvent =
  | { kind: 'field'; info: multipasta.PartInfo; value: Uint8Array }
  | { kind: 'start'; info: multipasta.PartInfo }
  | { kind: 'chunk'; chunk: Uint8Array }
  | { kind: 'end' }

/** Deletes the blobs of an upload that will not be kept. */
export async function discardUpload(blobs: BlobStore, upload: Pick<ReceivedUpload, 'files'>): Promise<void> {
  for (const file of upload.files) await blobs.delete(file.blobKey).catch(() => undefined)
}

function parseErrorProblem(error: multipasta.MultipartError, maxBytes: number): HttpProblem {
  if (error._tag === 'ReachedLimit') {
    if (error.limit === 'MaxParts') return new HttpProblem('payload-too-large', `Uploads are limited to ${MAX_PARTS} parts.`)
    if (error.limit === 'MaxFieldSize') return new HttpProblem('payload-too-large', `Text fields are limited to ${MAX_FIELD_BYTES} bytes.`)
    return new HttpProblem('payload-too-large', `Uploads are limited to ${maxBytes} bytes per request.`)
  }
  const why = error._tag === 'InvalidBoundary' ? 'has no usable boundary'
    : error._tag === 'EndNotReached' ? 'ends before its closing boundary'
      : 'is not a well-formed multipart/form-data body'
  return validationProblem([{ field: 'body', message: why }])
}

export async function receiveMultipart(request: Request, options: ReceiveOptions): Promise<ReceivedUpload> {
  const type = request.headers.get('content-type') ?? ''
  if (!/^multipart\/form-data\s*;.*boundary=/i.test(type)) {
    throw validationProblem([{ field: 'Content-Type', message: 'must be multipart/form-data with a boundary' }])
  }
  const tooLarge = () => new HttpProblem('payload-too-large', `Uploads are limited to ${options.maxBytes} bytes per request.`)
  const declared = Number(request.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > options.maxBytes) throw tooLarge()
  if (!request.body) throw validationProblem([{ field: options.fileField, message: 'is required' }])

  const upload: ReceivedUpload = { fields: new Map(), files: [], errors: [] }
  const events: ParserEvent[] = []
  let parseError: multipasta.MultipartError | undefined
  let finished = false
  const parser = multipasta.make({
    headers: { 'content-type': type },
    maxParts: MAX_PARTS,
    maxFieldSize: MAX_FIELD_BYTES,
    isFile: (info) => info.filename !== undefined,
    onField: (info, value) => events.push({ kind: 'field', info, value }),
    onFile(info) {
      events.push({ kind: 'start', info })
      return (chunk) => events.push(chunk === null ? { kind: 'end' } : { kind: 'chunk', chunk })
    },
    onError: (error) => { parseError ??= error },
    onDone: () => { finished = true },
  })

  // The file being received: null while skipping a refused part's bytes.
  let current: { file: ReceivedFile; writer: BlobWriter; hash: ReturnType<DigestStreamFactory> } | null = null
  const names = new Set<string>()

  async function startFile(info: multipasta.PartInfo): Promise<void> {
    // Browsers and undici percent-encode exactly these three in multipart file names (HTML spec).
    const name = (info.filename ?? '').replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n')
    if (info.name !== options.fileField) {
      upload.errors.push({ field: info.name || 'body', message: 'must be a text field, not a file' })
      return
    }
    const problem = options.fileNameProblem(name) ?? (names.has(name) ? `file name ${JSON.stringify(name)} appears twice` : undefined)
    names.add(name)
    if (problem) {
      upload.errors.push({ field: options.fileField, message: problem })
      return
    }
    const blobKey = options.newBlobKey()
    const writer = await options.blobs.open(blobKey)
    current = { file: { name, size: 0, blobKey, sha1: '', sha256: '', sha512: '' }, writer, hash: options.digestStream() }
  }

  async function drain(): Promise<void> {
    for (let event = events.shift(); event; event = events.shift()) {
      if (event.kind === 'field') {
        const { name } = event.info
        if (name === options.fileField) {
          upload.errors.push({ field: name, message: 'must be a file, not a text field' })
          continue
        }
        upload.fields.set(name, [...upload.fields.get(name) ?? [], multipasta.decodeField(event.info, event.value)])
      } else if (event.kind === 'start') {
        await startFile(event.info)
      } else if (!current) {
        continue
      } else if (event.kind === 'chunk') {
        current.hash.update(event.chunk)
        current.file.size += event.chunk.byteLength
        await current.writer.write(event.chunk)
      } else {
        const { file, writer, hash } = current
        current = null
        await writer.commit()
        Object.assign(file, hash.digest())
        upload.files.push(file)
      }
    }
  }

  const reader = request.body.getReader()
  let received = 0
  try {
    for (;;) {
      const { value, done } = await reader.read().catch(() => {
        throw validationProblem([{ field: 'body', message: 'was cut off: the connection ended before the upload did' }])
      })
      if (done) break
      received += value.byteLength
      if (received > options.maxBytes) throw tooLarge()
      parser.write(value)
      if (parseError) throw parseErrorProblem(parseError, options.maxBytes)
      await drain()
    }
    parser.end()
    if (parseError) throw parseErrorProblem(parseError, options.maxBytes)
    await drain()
    if (!finished) throw parseErrorProblem({ _tag: 'EndNotReached' }, options.maxBytes)
    return upload
  } catch (error) {
    await reader.cancel().catch(() => undefined)
    const open = current as { writer: BlobWriter } | null
    if (open) await open.writer.abort().catch(() => undefined)
    await discardUpload(options.blobs, upload)
    throw error
  }
}
