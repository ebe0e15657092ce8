/** @module The base of absolute URLs an answer carries. */
import type { Services } from './services.ts'

/** Base of absolute URLs: the configured public URL or the request's origin. */
export function baseUrl(s: Services, requestUrl: string): string {
  if (s.config.publicUrl) return s.config.publicUrl.replace(/\/+$/, '')
  // The origin is everything before the first '/' after "scheme://" (cheaper than new URL()).
  const slash = requestUrl.indexOf('/', requestUrl.indexOf('//') + 2)
  return slash === -1 ? requestUrl : requestUrl.slice(0, slash)
}
