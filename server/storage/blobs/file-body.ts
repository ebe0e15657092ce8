/**
 * @module Blob bodies that are a span of a file on disk. The app only sees a web
 * `ReadableStream`; a runtime that can send a file itself (Node, `runtime/file-response-node.ts`)
 * asks `fileSpanOf(response body)` and, for a marked body, writes the file to the socket instead
 * of reading the stream, which is then never opened.
 */

/** Bytes `start` to `end` (inclusive, like HTTP `Range`) of the file at `path`. */
export interface FileSpan {
  path: string
  start: number
  end: number
}

const spans = new WeakMap<ReadableStream<Uint8Array>, FileSpan>()

export function markFileBody(body: ReadableStream<Uint8Array>, span: FileSpan): ReadableStream<Uint8Array> {
  spans.set(body, span)
  return body
}

export function fileSpanOf(body: unknown): FileSpan | undefined {
  return body instanceof ReadableStream ? spans.get(body) : undefined
}
