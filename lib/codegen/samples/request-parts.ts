/** @module The parts of a HAR request that the samples' own renderers write. */
import type { HarRequest } from '@readme/httpsnippet'

type Param = { name: string; value?: string; fileName?: string; contentType?: string }
type Pair = { name: string; value: string }

export interface RequestParts {
  /** The URL with its query string. */
  url: string
  /** Every header but Content-Type, which each client sets from its body. */
  headers: Pair[]
  /** Multipart text fields, then file fields (name and file name), in the example's order. */
  fields: (readonly [string, string])[]
  files: (readonly [string, string])[]
}

export function requestParts(har: HarRequest): RequestParts {
  const params = (har.postData?.params ?? []) as Param[]
  const fields = params.filter((p) => p.fileName === undefined).map((p) => [p.name, p.value ?? ''] as const)
  const files = params.flatMap((p) => (p.fileName === undefined ? [] : [[p.name, p.fileName] as const]))
  const url =
    har.url +
    (har.queryString.length ? `?${new URLSearchParams((har.queryString as Pair[]).map((q) => [q.name, q.value]))}` : '')
  const headers = (har.headers as Pair[]).filter((h) => h.name.toLowerCase() !== 'content-type')
  return { fields, files, url, headers }
}
