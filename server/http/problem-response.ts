/** @module RFC 9457 problem documents: the only shape of every 4xx/5xx response. */
import type { HttpProblem } from '../core/problem.ts'
import { SECURITY_HEADERS, secured } from './security-headers.ts'

export const PROBLEM_BASE = 'https://ferry.example.org/docs/troubleshooting#'

export function problemResponse(problem: HttpProblem, instance: string): Response {
  const body = {
    type: PROBLEM_BASE + problem.kind,
    title: problem.title,
    status: problem.status,
    detail: problem.message,
    instance,
    ...(problem.errors ? { errors: problem.errors } : {}),
  }
  // A cache in front must not keep an error: a 404 for an app created a minute later would outlive it.
  const headers: Record<string, string> = {
    'content-type': 'application/problem+json',
    'cache-control': 'no-store',
    ...SECURITY_HEADERS,
  }
  if (problem.status === 401) headers['www-authenticate'] = 'Bearer'
  if (problem.headers) Object.assign(headers, problem.headers)
  return secured(new Response(JSON.stringify(body), { status: problem.status, headers }))
}
