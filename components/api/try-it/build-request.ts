/**
 * A Try it form → the request to send: path parameters filled in, query and headers from the
 * non-empty fields, the body as JSON (checked first), a form, or text. What cannot be sent is
 * named by field, and nothing is sent.
 */
import type { TryItRequest } from '../../../lib/codegen/model'

export interface Draft {
  /** Parameter values by `in:name`, e.g. `path:app`. */
  params: Record<string, string>
  /** A JSON or text body as typed. */
  body: string
  /** Form fields by name. */
  fields: Record<string, string>
  /** Files chosen for each file field. */
  files: Record<string, File[]>
  signupKey: string
}

export const paramKey = (p: { in: string; name: string }) => `${p.in}:${p.name}`

/** The form as the page's examples fill it: required parameters get their example, optional ones start empty (their example is shown as a placeholder). */
export function initialDraft(request: TryItRequest): Draft {
  const body = request.body
  return {
    params: Object.fromEntries(request.parameters.map((p) => [paramKey(p), p.required ? (p.example ?? '') : ''])),
    body: body && body.kind !== 'form' ? body.example : '',
    fields: body?.kind === 'form' ? Object.fromEntries(body.fields.map((f) => [f.name, f.example])) : {},
    files: {},
    signupKey: '',
  }
}

export type Built =
  { ok: true; url: string; init: RequestInit & { headers: Headers } } | { ok: false; errors: string[] }

const LOCATION_NAMES = { path: 'Path parameter', query: 'Query parameter', header: 'Header' } as const

export function buildRequest(request: TryItRequest, draft: Draft, base: string, token: string | undefined): Built {
  const errors: string[] = []
  const headers = new Headers()
  const query = new URLSearchParams()
  let path = request.path
  for (const p of request.parameters) {
    const value = (draft.params[paramKey(p)] ?? '').trim()
    if (!value) {
      if (p.required) errors.push(`${LOCATION_NAMES[p.in]} ${p.name} is required.`)
      continue
    }
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(value))
    else if (p.in === 'query') query.append(p.name, value)
    else headers.set(p.name, value)
  }
  if (token) headers.set('Authorization', `Bearer ${token}`)
  if (draft.signupKey.trim()) headers.set('X-Ferry-Signup-Key', draft.signupKey.trim())
  let body: BodyInit | undefined
  const spec = request.body
  if (spec?.kind === 'json' && draft.body.trim()) {
    try {
      JSON.parse(draft.body)
      body = draft.body
      headers.set('Content-Type', spec.contentType)
    } catch (error) {
      errors.push(`The body is not valid JSON: ${error instanceof Error ? error.message : String(error)}.`)
    }
  } else if (spec?.kind === 'text' && draft.body) {
    body = draft.body
    headers.set('Content-Type', spec.contentType)
  } else if (spec?.kind === 'form') {
    const form = new FormData()
    for (const f of spec.fields) if ((draft.fields[f.name] ?? '').trim()) form.append(f.name, draft.fields[f.name]!)
    for (const f of spec.files) for (const file of draft.files[f.name] ?? []) form.append(f.name, file, file.name)
    body = form
  }
  if (spec?.required && body === undefined && spec.kind !== 'form') errors.push('The body is required.')
  if (errors.length > 0) return { ok: false, errors }
  const search = query.toString()
  return {
    ok: true,
    url: `${base.replace(/\/+$/, '')}${path}${search ? `?${search}` : ''}`,
    init: { method: request.method, headers, body },
  }
}
