/**
 * The page's Examples column, rewritten from Try it's request as the reader edits it, in every
 * language (lib/codegen/samples.ts, the renderers the page was generated with). Loaded with the
 * panel's first edit; credentials are the samples' placeholders, never the reader's token.
 */
import type { HarRequest } from '@readme/httpsnippet'
import type { TryItRequest } from '../../../lib/codegen/model'
import { renderSamples } from '../../../lib/codegen/samples'
import { buildRequest, type Draft } from './build-request'
import { NOTE_CLASS, ORIGINAL } from './sample-originals'

const SAMPLES = '[data-ferry-tabs][data-storage-key="ferry-sample-language"]'
const PLACEHOLDERS: Record<string, { name: string; value: string }> = {
  bearerAuth: { name: 'Authorization', value: 'Bearer <token>' },
  signupKey: { name: 'X-Ferry-Signup-Key', value: '<signup-key>' },
}

/** The request as a HAR, the samples' input; undefined while the form cannot be sent. */
export function draftHar(request: TryItRequest, draft: Draft, base: string): HarRequest | undefined {
  const built = buildRequest(request, { ...draft, signupKey: '' }, base, undefined)
  if (!built.ok) return undefined
  const url = new URL(built.url)
  const headers = [...built.init.headers]
    .filter(([name]) => name.toLowerCase() !== 'content-type')
    .map(([name, value]) => ({ name, value }))
  for (const scheme of request.security[0] ?? []) {
    const placeholder = PLACEHOLDERS[scheme]
    if (placeholder) headers.push(placeholder)
  }
  const har = {
    method: request.method,
    url: `${url.origin}${decodeURI(url.pathname)}`,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers,
    queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
    headersSize: -1,
    bodySize: -1,
  } as Omit<HarRequest, 'postData'> as HarRequest // postData is optional in HAR; httpsnippet's type says otherwise
  const body = request.body
  if (body?.kind === 'form') {
    const params: { name: string; value?: string; fileName?: string; contentType?: string }[] = body.fields
      .filter((f) => (draft.fields[f.name] ?? '').trim())
      .map((f) => ({ name: f.name, value: draft.fields[f.name] }))
    for (const f of body.files) {
      const names = draft.files[f.name]?.map((file) => file.name) ?? f.examples
      for (const fileName of names) params.push({ name: f.name, fileName, contentType: 'application/octet-stream' })
    }
    har.postData = { mimeType: body.contentType, params }
  } else if (body && typeof built.init.body === 'string') {
    headers.push({ name: 'Content-Type', value: body.contentType })
    har.postData = { mimeType: body.contentType, text: built.init.body }
  }
  return har
}

function keepOriginal(code: Element) {
  if (code.nextElementSibling?.matches(ORIGINAL)) return
  const template = document.createElement('template')
  template.dataset.ferrySampleOriginal = ''
  template.innerHTML = code.innerHTML
  code.after(template)
}

/** Shows the request in the page's samples (`server` undefined: the documented server they address). */
export function showSamples(request: TryItRequest, draft: Draft, server: string | undefined): void {
  const group = document.querySelector(SAMPLES)
  if (!group) return
  const documented =
    (group.querySelector(`${ORIGINAL}`)?.innerHTML ?? group.textContent ?? '').match(/https?:\/\/[^/\s'"`<]+/)?.[0] ??
    'https://updates.example.com'
  const har = draftHar(request, draft, server ?? documented)
  if (!har) return
  const samples = new Map(renderSamples(har, !request.textAnswer).map((s) => [s.label, s.code]))
  group.querySelectorAll<HTMLElement>('[role="tab"]').forEach((tab) => {
    const code = document.getElementById(tab.getAttribute('aria-controls') ?? '')?.querySelector('pre code')
    const text = samples.get(tab.dataset.value ?? '')
    if (!code || text === undefined) return
    keepOriginal(code)
    code.textContent = text
  })
  if (!group.previousElementSibling?.classList.contains(NOTE_CLASS)) {
    const note = document.createElement('p')
    note.className = NOTE_CLASS
    note.textContent = 'These samples show the request as edited in Try it, with placeholders for credentials.'
    group.before(note)
  }
}
