/**
 * @module Code samples: an operation and its example become a HAR request, which
 * @readme/httpsnippet renders as curl, JavaScript (fetch), Python (requests), Go (net/http),
 * Java (java.net.http), C# (HttpClient), PHP (Guzzle) and Ruby (Net::HTTP); Rust (reqwest) and
 * multipart uploads have renderers of their own.
 */
import { HTTPSnippet, type HarRequest } from '@readme/httpsnippet'
import type { TargetId } from '@readme/httpsnippet/targets'
import type { CodeSample, OperationModel } from './model.ts'
import { MULTIPART_RENDERERS } from './multipart-samples.ts'
import { tidyCSharp } from './samples/csharp.ts'
import { tidyJava } from './samples/java.ts'
import { rust } from './samples/rust.ts'

type Render = (har: HarRequest) => string
/** httpsnippet's target and client, and what the output needs to be pasted as is; or a renderer of its own. */
type SampleTarget = { label: string; language: string } & (
  | { target: TargetId; client: string; options?: Record<string, unknown>; tidy?: (code: string) => string }
  | { render: Render }
)

/** The tabs, in order. A reader's choice is stored by label (components/content/tabs.tsx): keep labels stable. */
export const SAMPLE_TARGETS: SampleTarget[] = [
  { label: 'curl', language: 'bash', target: 'shell', client: 'curl' },
  { label: 'JavaScript', language: 'js', target: 'javascript', client: 'fetch' },
  { label: 'Python', language: 'python', target: 'python', client: 'requests' },
  // checkErrors: a pasted sample must not dereference a nil response when the server is down (go vet).
  { label: 'Go', language: 'go', target: 'go', client: 'native', options: { checkErrors: true } },
  { label: 'Java', language: 'java', target: 'java', client: 'nethttp', tidy: tidyJava },
  { label: 'C#', language: 'csharp', target: 'csharp', client: 'httpclient', tidy: tidyCSharp },
  { label: 'PHP', language: 'php', target: 'php', client: 'guzzle' },
  { label: 'Ruby', language: 'ruby', target: 'ruby', client: 'native' },
  { label: 'Rust', language: 'rust', render: rust },
]

/**
 * `x-codeSamples` `lang` values (Redocly's names, compared case-insensitively) → the fence language
 * of the tab they join. Only languages the samples are checked in (tests/codegen/samples-syntax.test.ts).
 */
export const CONTRACT_SAMPLE_LANGS: Record<string, string> = {
  shell: 'bash',
  bash: 'bash',
  curl: 'bash',
  javascript: 'js',
  'node.js': 'js',
  python: 'python',
  go: 'go',
  java: 'java',
  'c#': 'csharp',
  csharp: 'csharp',
  php: 'php',
  ruby: 'ruby',
  rust: 'rust',
}

/**
 * The generated samples with the operation's `x-codeSamples` beside them: each after the last tab
 * of its language, in the contract's order.
 */
export function operationSamples(op: OperationModel, serverUrl: string): CodeSample[] {
  const samples = renderSamples(buildHar(op, serverUrl), answersJson(op))
  for (const extra of op.codeSamples) {
    const last = samples.findLastIndex((s) => s.language === extra.language)
    samples.splice(last === -1 ? samples.length : last + 1, 0, extra)
  }
  return samples
}

/** Whether every success answer of the operation is JSON (a 204, a feed, a file or a redirect to one is not). */
export function answersJson(op: OperationModel): boolean {
  return op.responses
    .filter((r) => /^[23]/.test(r.status))
    .every((r) => r.body !== undefined && /[/+]json$/.test(r.body.contentType))
}

/**
 * httpsnippet's fetch sample parses every answer as JSON; one without a JSON body (204, a
 * feed, a file) is read as text, or the reader gets a SyntaxError for a request that worked.
 */
const fetchText = (code: string) => code.replace('.then(res => res.json())', '.then(res => res.text())')

/** Placeholders for credentials in samples; a reader replaces them. */
const CREDENTIALS: Record<string, { name: string; value: string }> = {
  bearerAuth: { name: 'Authorization', value: 'Bearer <token>' },
  signupKey: { name: 'X-Ferry-Signup-Key', value: '<signup-key>' },
}

/**
 * Values only an earlier answer hands out: a pagination cursor, a signed link's expiry and
 * signature. The example's would fail (an unknown cursor, a signature the server never made).
 */
const SKIPPED_QUERY = new Set(['cursor', 'expires', 'signature'])

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

export function buildHar(op: OperationModel, serverUrl: string): HarRequest {
  let path = op.path
  const queryString: { name: string; value: string }[] = []
  const headers: { name: string; value: string }[] = []
  for (const p of op.parameters) {
    if (p.exampleValue === undefined) continue
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(text(p.exampleValue)))
    else if (p.in === 'query' && !SKIPPED_QUERY.has(p.name) && (p.required || p.name !== 'limit'))
      queryString.push({ name: p.name, value: text(p.exampleValue) })
    else if (p.in === 'header') headers.push({ name: p.name, value: text(p.exampleValue) })
  }
  // The first security alternative is the one shown; `[]` (anonymous) adds no header.
  for (const scheme of op.access.security[0] ?? []) {
    const credential = CREDENTIALS[scheme]
    if (credential) headers.push(credential)
  }
  const har = {
    method: op.method,
    url: serverUrl + path,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers,
    queryString,
    headersSize: -1,
    bodySize: -1,
  } as Omit<HarRequest, 'postData'> as HarRequest // postData is optional in HAR; httpsnippet's type says otherwise
  const body = op.requestBody
  if (body?.example !== undefined) {
    if (body.contentType === 'multipart/form-data') {
      const params: { name: string; value?: string; fileName?: string; contentType?: string }[] = []
      for (const [name, value] of Object.entries(body.example as Record<string, unknown>)) {
        if (body.fileFields.includes(name)) {
          for (const file of [value].flat())
            params.push({ name, fileName: String(file), contentType: 'application/octet-stream' })
        } else params.push({ name, value: text(value) })
      }
      har.postData = { mimeType: body.contentType, params }
    } else {
      headers.push({ name: 'Content-Type', value: body.contentType })
      har.postData = {
        mimeType: body.contentType,
        text: body.contentType.includes('json') ? JSON.stringify(body.example, null, 2) : text(body.example),
      }
    }
  }
  return har
}

/** `json`: the answer is JSON (a sample may parse it); else samples print it as text. */
export function renderSamples(har: HarRequest, json = true): CodeSample[] {
  const snippet = new HTTPSnippet(har)
  const multipart = har.postData?.mimeType === 'multipart/form-data'
  return SAMPLE_TARGETS.map((sample) => {
    const { label, language } = sample
    const own = multipart ? MULTIPART_RENDERERS[label] : undefined
    if (own) return { label, language, code: own(har) }
    if ('render' in sample) return { label, language, code: sample.render(har) }
    const [code] = snippet.convert(sample.target, sample.client, { indent: '  ', ...sample.options })
    if (typeof code !== 'string')
      throw new Error(`httpsnippet could not render ${sample.target}/${sample.client} for ${har.method} ${har.url}`)
    const tidied = sample.tidy?.(code) ?? code
    return { label, language, code: (json || label !== 'JavaScript' ? tidied : fetchText(tidied)).trimEnd() }
  })
}
