/**
 * @module Ferry Console's static files (`npm run build:console` writes them to console-dist/),
 * served by the Node edge at /console on the API's own origin. Only this module reads them: the
 * server imports nothing from the site. The page's CSP allows its own script and stylesheet and
 * nothing inline; it may not be framed.
 */
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'

export const CONSOLE_PATH = '/console'
/** Browsers ask every origin for it: the console's icon (an SVG, which they take whatever the name). */
const FAVICON_PATH = '/favicon.ico'

const DIST = resolve(import.meta.dirname, '..', '..', 'console-dist')

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ')

const HEADERS = {
  'content-security-policy': CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cache-control': 'no-cache',
}

const FILES: Record<string, string> = {
  'console.js': 'text/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
  'index.html': 'text/html; charset=utf-8',
}

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Ferry Console is not built</title></head>
<body><h1>Ferry Console is not built</h1>
<p>This server has no console files (<code>npm ci</code> builds them). Run <code>npm run build:console</code> and reload this page.</p></body></html>
`

const isConsolePath = (pathname: string) => pathname === CONSOLE_PATH || pathname.startsWith(`${CONSOLE_PATH}/`)

/** Whether a request is the console's, or the server's icon (cheap first: the API's hot paths never parse a URL here). */
export const isConsoleUrl = (url: string) =>
  (url.includes(CONSOLE_PATH) && isConsolePath(new URL(url).pathname)) ||
  (url.endsWith(FAVICON_PATH) && new URL(url).pathname === FAVICON_PATH)

/**
 * The answer to a /console request. Every path under /console that is not one of the built files
 * is the page itself (the console's own views).
 */
export async function consoleResponse(request: Request, dist = DIST): Promise<Response> {
  const { pathname } = new URL(request.url)
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response('Method Not Allowed\n', {
      status: 405,
      headers: { ...HEADERS, allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' },
    })
  }
  const name = pathname === FAVICON_PATH ? 'favicon.svg' : pathname.slice(CONSOLE_PATH.length + 1)
  const file = name in FILES ? name : 'index.html'
  let body: Buffer
  try {
    body = await readFile(join(dist, file))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    return new Response(request.method === 'HEAD' ? null : NOT_BUILT, {
      status: 404,
      headers: { ...HEADERS, 'content-type': 'text/html; charset=utf-8' },
    })
  }
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
    status: 200,
    headers: { ...HEADERS, 'content-type': FILES[file] ?? 'application/octet-stream' },
  })
}
