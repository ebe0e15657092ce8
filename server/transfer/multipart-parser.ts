/**
 * @module A strict streaming multipart/form-data parser (RFC 7578 over RFC 2046). It yields each
 * part's headers, then its bytes as they arrive, then its end, holding at most one header block
 * (16 KiB) and a boundary's length of bytes. Any layout it cannot read unambiguously — a part
 * without a blank line after its headers, without Content-Disposition or a name, a header given
 * twice, folded or binary header lines, nested multipart, a transfer encoding, a body that ends
 * before its closing boundary — is a `MultipartError` saying which part and what is wrong, so no
 * byte is ever attributed to the wrong field.
 */

export interface PartHeaders {
  /** 1-based position of the part in the body. */
  index: number
  name: string
  /** Present (possibly empty) exactly when the part is a file. */
  filename: string | undefined
  /** The part's media type in lower case, `''` when it has no Content-Type. */
  mediaType: string
  /** The Content-Type's charset parameter. */
  charset: string | undefined
}

export type MultipartEvent = { kind: 'part'; part: PartHeaders } | { kind: 'data'; chunk: Uint8Array } | { kind: 'end' }

/** A malformed body (`limit` false) or one past a limit (`limit` true). */
export class MultipartError extends Error {
  readonly limit: boolean
  constructor(message: string, limit = false) {
    super(message)
    this.limit = limit
  }
}

export interface MultipartParser {
  /** The events the bytes of `chunk` complete; throws `MultipartError`. */
  write(chunk: Uint8Array): Generator<MultipartEvent, void, undefined>
  /** The body is over; throws `MultipartError` unless it ended with its closing boundary. */
  end(): void
}

export const MAX_HEADER_BYTES = 16 * 1024
const MAX_HEADERS = 32
const MAX_PADDING = 64
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+"
const HEADER_LINE = new RegExp(`^(${TOKEN}):[ \\t]*(.*?)[ \\t]*$`)
const PARAMETER = new RegExp(`[ \\t]*;[ \\t]*(${TOKEN})[ \\t]*=[ \\t]*(?:"([^"]*)"|(${TOKEN}))[ \\t]*`, 'y')
// RFC 2046 bchars, at most 70, not ending in a space.
const BOUNDARY = /^[0-9A-Za-z'()+_,./:=? -]{0,69}[0-9A-Za-z'()+_,./:=?-]$/

const CR = 13
const LF = 10
const DASH = 45
const encoder = new TextEncoder()
const utf8 = new TextDecoder('utf-8', { fatal: true })

/** The boundary of a `multipart/form-data` Content-Type, or why there is none usable. */
export function boundaryOf(contentType: string): { boundary: string } | { problem: string } {
  const [type = '', ...rest] = contentType.split(';')
  if (type.trim().toLowerCase() !== 'multipart/form-data')
    return { problem: 'must be multipart/form-data with a boundary' }
  const param = /^[ \t]*boundary[ \t]*=[ \t]*(?:"([^"]*)"|([^\s;"]*))[ \t]*$/i
  const matches = rest.map((p) => param.exec(p)).filter((m) => m !== null)
  if (matches.length === 0) return { problem: 'must be multipart/form-data with a boundary' }
  if (matches.length > 1) return { problem: 'gives the boundary more than once' }
  const boundary = matches[0]![1] ?? matches[0]![2] ?? ''
  if (!BOUNDARY.test(boundary))
    return { problem: 'has a boundary that is not 1 to 70 of the characters RFC 2046 allows' }
  return { boundary }
}

/** Browsers percent-encode exactly these three in multipart names and file names (HTML spec). */
const unescapeFormName = (s: string) => s.replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n')

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0]!
  const last = haystack.length - needle.length
  for (let i = haystack.indexOf(first, from); i !== -1 && i <= last; i = haystack.indexOf(first, i + 1)) {
    let j = 1
    while (j < needle.length && haystack[i + j] === needle[j]) j++
    if (j === needle.length) return i
  }
  return -1
}

/** Where the longest tail of `buf[from..]` that could begin `needle` starts (`buf.length` if none). */
function partialStart(buf: Uint8Array, needle: Uint8Array, from: number): number {
  for (let i = Math.max(from, buf.length - needle.length + 1); i < buf.length; i++) {
    if (buf[i] !== needle[0]) continue
    let j = 1
    while (i + j < buf.length && buf[i + j] === needle[j]) j++
    if (i + j === buf.length) return i
  }
  return buf.length
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

function parseHeaders(block: Uint8Array, index: number): PartHeaders {
  const where = `part ${index}`
  let text: string
  try {
    text = utf8.decode(block)
  } catch {
    throw new MultipartError(`${where} has headers that are not valid UTF-8`)
  }
  const headers = new Map<string, string>()
  const lines = text.split('\r\n').slice(0, -1)
  if (lines.length > MAX_HEADERS) throw new MultipartError(`${where} has more than ${MAX_HEADERS} headers`)
  for (const line of lines) {
    if (line.startsWith(' ') || line.startsWith('\t'))
      throw new MultipartError(`${where} has a folded header line; send each header on one line`)
    const m = HEADER_LINE.exec(line)
    if (!m) throw new MultipartError(`${where} has a malformed header line ${JSON.stringify(line.slice(0, 40))}`)
    const [, rawName = '', value = ''] = m
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value))
      throw new MultipartError(`${where} has a control character in its ${rawName} header`)
    const name = rawName.toLowerCase()
    if (headers.has(name)) throw new MultipartError(`${where} sends its ${rawName} header twice`)
    headers.set(name, value)
  }
  const disposition = headers.get('content-disposition')
  if (disposition === undefined) throw new MultipartError(`${where} has no Content-Disposition header`)
  const semicolon = disposition.indexOf(';')
  const dispositionType = (semicolon === -1 ? disposition : disposition.slice(0, semicolon)).trim().toLowerCase()
  if (dispositionType !== 'form-data')
    throw new MultipartError(
      `${where} has Content-Disposition ${JSON.stringify(dispositionType)}; it must be form-data`,
    )
  const params = new Map<string, string>()
  if (semicolon !== -1) {
    PARAMETER.lastIndex = semicolon
    while (PARAMETER.lastIndex < disposition.length) {
      const at = PARAMETER.lastIndex
      const m = PARAMETER.exec(disposition)
      if (!m)
        throw new MultipartError(
          `${where} has a malformed Content-Disposition near ${JSON.stringify(disposition.slice(at, at + 30))}`,
        )
      const key = m[1]!.toLowerCase()
      if (params.has(key)) throw new MultipartError(`${where} gives the Content-Disposition parameter ${key} twice`)
      params.set(key, m[2] ?? m[3] ?? '')
    }
  }
  const rawName = params.get('name')
  if (rawName === undefined) throw new MultipartError(`${where} has no name in its Content-Disposition`)
  if (rawName === '') throw new MultipartError(`${where} has an empty name in its Content-Disposition`)
  const name = unescapeFormName(rawName)
  const named = `${where} (${JSON.stringify(name)})`
  let filename = params.has('filename') ? unescapeFormName(params.get('filename') ?? '') : undefined
  const extended = params.get('filename*')
  if (extended !== undefined) {
    const m = /^utf-8'[^']*'(.*)$/i.exec(extended)
    if (!m) throw new MultipartError(`${named} has a filename* that is not UTF-8''<percent-encoded name>`)
    try {
      filename = decodeURIComponent(m[1] ?? '')
    } catch {
      throw new MultipartError(`${named} has a filename* that is not valid percent-encoded UTF-8`)
    }
  }
  const contentType = headers.get('content-type') ?? ''
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase()
  if (mediaType.startsWith('multipart/')) {
    throw new MultipartError(`${named} is itself multipart (${mediaType}); send each file as its own part`)
  }
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase()
  if (encoding !== undefined && !['7bit', '8bit', 'binary'].includes(encoding)) {
    throw new MultipartError(`${named} uses Content-Transfer-Encoding ${encoding}; send the bytes as they are`)
  }
  const charset = /;[ \t]*charset[ \t]*=[ \t]*"?([^";\s]+)"?/i.exec(contentType)?.[1]
  return { index, name, filename, mediaType, charset }
}

const headerOnly = (index: number) =>
  new MultipartError(`part ${index} has no blank line after its headers before the next boundary`)

type State = 'preamble' | 'delimiter' | 'headers' | 'first-body' | 'body' | 'epilogue'

export function createMultipartParser(boundary: string, maxParts: number): MultipartParser {
  const delimiter = encoder.encode(`\r\n--${boundary}`)
  const blankLine = encoder.encode('\r\n\r\n')
  let state: State = 'preamble'
  // The body is read as if it began with CRLF, so a first line `--boundary` is a delimiter too.
  let pending: Uint8Array = encoder.encode('\r\n')
  let parts = 0
  let sawBoundary = false
  let empty = true

  function* write(chunk: Uint8Array): Generator<MultipartEvent, void, undefined> {
    if (chunk.length) empty = false
    const buf = concat(pending, chunk)
    let pos = 0
    for (;;) {
      if (state === 'preamble') {
        const at = indexOf(buf, delimiter, pos)
        if (at === -1) {
          pos = Math.max(pos, buf.length - delimiter.length + 1)
          break
        }
        sawBoundary = true
        pos = at + delimiter.length
        state = 'delimiter'
      } else if (state === 'delimiter') {
        if (buf.length - pos < 2) break
        if (buf[pos] === DASH && buf[pos + 1] === DASH) {
          state = 'epilogue'
          continue
        }
        let p = pos
        while (p < buf.length && (buf[p] === 32 || buf[p] === 9)) p++
        if (p - pos > MAX_PADDING)
          throw new MultipartError(`has a boundary line with more than ${MAX_PADDING} spaces after it`)
        if (buf.length - p < 2) break
        if (buf[p] !== CR || buf[p + 1] !== LF) {
          const where = parts === 0 ? 'before its first part' : `after part ${parts}`
          if (buf[p] === LF)
            throw new MultipartError(`has a boundary line ending in a bare LF ${where}; multipart lines end in CRLF`)
          throw new MultipartError(
            `has a line ${where} that starts with the boundary --${boundary} but goes on with other characters`,
          )
        }
        if (++parts > maxParts) throw new MultipartError(`has more than ${maxParts} parts`, true)
        pos = p + 2
        state = 'headers'
      } else if (state === 'headers') {
        if (buf.length - pos < 2) break
        // A CRLF right away: no headers at all (refused below for lack of Content-Disposition).
        const end = buf[pos] === CR && buf[pos + 1] === LF ? pos - 2 : indexOf(buf, blankLine, pos)
        const next = indexOf(buf, delimiter, pos)
        if (next !== -1 && (end === -1 || next < end)) throw headerOnly(parts)
        if (end === -1) {
          if (buf.length - pos > MAX_HEADER_BYTES)
            throw new MultipartError(`part ${parts} has headers longer than ${MAX_HEADER_BYTES} bytes`)
          break
        }
        if (end + 2 - pos > MAX_HEADER_BYTES)
          throw new MultipartError(`part ${parts} has headers longer than ${MAX_HEADER_BYTES} bytes`)
        yield { kind: 'part', part: parseHeaders(buf.subarray(pos, end + 2), parts) }
        // The blank line's CRLF may also be the start of the next delimiter: checked in 'first-body'.
        pos = end + 2
        state = 'first-body'
      } else if (state === 'first-body') {
        const available = Math.min(buf.length - pos, delimiter.length)
        let j = 0
        while (j < available && buf[pos + j] === delimiter[j]) j++
        if (j === delimiter.length) throw headerOnly(parts)
        if (j === available && available < delimiter.length) break
        pos += 2
        state = 'body'
      } else if (state === 'body') {
        const at = indexOf(buf, delimiter, pos)
        const stop = at === -1 ? partialStart(buf, delimiter, pos) : at
        if (stop > pos) yield { kind: 'data', chunk: buf.subarray(pos, stop) }
        pos = stop
        if (at === -1) break
        yield { kind: 'end' }
        pos = at + delimiter.length
        state = 'delimiter'
      } else {
        pos = buf.length
        break
      }
    }
    pending = buf.slice(pos)
  }

  return {
    write,
    end() {
      if (state === 'epilogue') return
      if (empty) throw new MultipartError('is empty')
      if (!sawBoundary)
        throw new MultipartError(`has no line --${boundary}: the boundary in Content-Type does not occur in the body`)
      if (state === 'headers' && parts > 0) throw new MultipartError(`ends inside the headers of part ${parts}`)
      throw new MultipartError(`ends before its closing boundary --${boundary}--`)
    },
  }
}
