/**
 * @module Streams a multipart/form-data upload into the blob store: each file is hashed and
 * written chunk by chunk as it arrives (never held whole in memory), text fields are collected.
 * Any failure (too large, malformed, client gone, storage error) removes every blob this
 * request wrote before the error propagates, so a refused upload leaves nothing behind.
 */
import type { DigestStreamFactory, Digests } from './digests.ts'
import {
  boundaryOf,
  createMultipartParser,
  MultipartError,
  type MultipartEvent,
  type PartHeaders,
} from './multipart-parser.ts'
import { HttpProblem, validationProblem, type FieldError } from '../core/problem.ts'
import type { BlobStore, BlobWriter } from '../core/storage.ts'
import { removeUnreferencedBlobs } from '../storage/blobs/blob-removal.ts'

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

type Receiving =
  | { kind: 'file'; file: ReceivedFile; writer: BlobWriter; hash: ReturnType<DigestStreamFactory> }
  | { kind: 'field'; part: PartHeaders; chunks: Uint8Array[]; size: number }
  | { kind: 'skip' }

const MAX_PARTS = 1000
const MAX_FIELD_BYTES = 1024 * 1024

/** Deletes the blobs of an upload that will not be kept. */
export async function discardUpload(blobs: BlobStore, upload: Pick<ReceivedUpload, 'files'>): Promise<void> {
  await removeUnreferencedBlobs(
    blobs,
    upload.files.map((file) => file.blobKey),
  )
}

function layoutProblem(error: MultipartError): HttpProblem {
  if (error.limit) return new HttpProblem('payload-too-large', `Uploads are limited to ${MAX_PARTS} parts.`)
  return validationProblem([{ field: 'body', message: error.message }])
}

function decodeField(part: PartHeaders, bytes: Uint8Array): string {
  const label = part.charset ?? 'utf-8'
  let decoder: TextDecoder
  try {
    decoder = new TextDecoder(label, { fatal: true })
  } catch {
    throw validationProblem([
      { field: part.name, message: `has charset ${JSON.stringify(label)}, which is not supported; send UTF-8` },
    ])
  }
  try {
    return decoder.decode(bytes)
  } catch {
    throw validationProblem([{ field: part.name, message: `is not valid ${label}` }])
  }
}

export async function receiveMultipart(request: Request, options: ReceiveOptions): Promise<ReceivedUpload> {
  const type = boundaryOf(request.headers.get('content-type') ?? '')
  if ('problem' in type) throw validationProblem([{ field: 'Content-Type', message: type.problem }])
  const tooLarge = () =>
    new HttpProblem('payload-too-large', `Uploads are limited to ${options.maxBytes} bytes per request.`)
  const declared = Number(request.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > options.maxBytes) throw tooLarge()
  if (!request.body) throw validationProblem([{ field: options.fileField, message: 'is required' }])

  const upload: ReceivedUpload = { fields: new Map(), files: [], errors: [] }
  const parser = createMultipartParser(type.boundary, MAX_PARTS)

  // The part being received: a file written to the blob store, a text field being collected,
  // or a refused part whose bytes are skipped.
  const receiving: { part: Receiving | null } = { part: null }
  const names = new Set<string>()

  async function startFile(part: PartHeaders): Promise<void> {
    const name = part.filename ?? ''
    if (part.name !== options.fileField) {
      upload.errors.push({ field: part.name, message: 'must be a text field, not a file' })
      receiving.part = { kind: 'skip' }
      return
    }
    const problem =
      options.fileNameProblem(name) ?? (names.has(name) ? `file name ${JSON.stringify(name)} appears twice` : undefined)
    names.add(name)
    if (problem) {
      upload.errors.push({ field: options.fileField, message: problem })
      receiving.part = { kind: 'skip' }
      return
    }
    const blobKey = options.newBlobKey()
    const writer = await options.blobs.open(blobKey)
    receiving.part = {
      kind: 'file',
      file: { name, size: 0, blobKey, sha1: '', sha256: '', sha512: '' },
      writer,
      hash: options.digestStream(),
    }
  }

  function startField(part: PartHeaders): void {
    if (part.name === options.fileField) {
      upload.errors.push({ field: part.name, message: 'must be a file, not a text field' })
      receiving.part = { kind: 'skip' }
      return
    }
    receiving.part = { kind: 'field', part, chunks: [], size: 0 }
  }

  async function handle(event: MultipartEvent): Promise<void> {
    if (event.kind === 'part') {
      if (event.part.filename !== undefined) await startFile(event.part)
      else startField(event.part)
      return
    }
    const part = receiving.part
    if (!part || part.kind === 'skip') {
      if (event.kind === 'end') receiving.part = null
      return
    }
    if (event.kind === 'data') {
      if (part.kind === 'field') {
        part.size += event.chunk.byteLength
        if (part.size > MAX_FIELD_BYTES)
          throw new HttpProblem('payload-too-large', `Text fields are limited to ${MAX_FIELD_BYTES} bytes.`)
        part.chunks.push(event.chunk)
        return
      }
      part.hash.update(event.chunk)
      part.file.size += event.chunk.byteLength
      await part.writer.write(event.chunk)
      return
    }
    receiving.part = null
    if (part.kind === 'field') {
      const bytes = new Uint8Array(part.size)
      let offset = 0
      for (const chunk of part.chunks) {
        bytes.set(chunk, offset)
        offset += chunk.byteLength
      }
      upload.fields.set(part.part.name, [...(upload.fields.get(part.part.name) ?? []), decodeField(part.part, bytes)])
      return
    }
    await part.writer.commit()
    Object.assign(part.file, part.hash.digest())
    upload.files.push(part.file)
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
      for (const event of parser.write(value)) await handle(event)
    }
    parser.end()
    return upload
  } catch (error) {
    await reader.cancel().catch(() => undefined)
    if (receiving.part?.kind === 'file') await receiving.part.writer.abort().catch(() => undefined)
    await discardUpload(options.blobs, upload)
    throw error instanceof MultipartError ? layoutProblem(error) : error
  }
}
