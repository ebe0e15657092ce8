import type { Transport, UploadProgress } from '../demo/sandbox-api'

/**
 * Uploads with XMLHttpRequest, the one browser API that reports a request body's progress
 * everywhere (a streamed fetch body needs HTTP/2 in Chromium).
 */
function xhrUpload(
  url: string,
  headers: Record<string, string>,
  body: FormData,
  onProgress: UploadProgress,
  signal: AbortSignal,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', url)
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value)
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : 0)
    xhr.onload = () => {
      const responseHeaders = new Headers()
      for (const line of xhr.getAllResponseHeaders().trim().split(/\r?\n/)) {
        const at = line.indexOf(':')
        if (at > 0) responseHeaders.append(line.slice(0, at).trim(), line.slice(at + 1).trim())
      }
      resolve(
        new Response(xhr.status === 204 ? null : xhr.responseText, {
          status: xhr.status,
          statusText: xhr.statusText,
          headers: responseHeaders,
        }),
      )
    }
    xhr.onerror = () => reject(new Error(`the upload to ${url} failed (network error)`))
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'))
    if (signal.aborted) return reject(new DOMException('The upload was cancelled.', 'AbortError'))
    signal.addEventListener('abort', () => xhr.abort(), { once: true })
    xhr.send(body)
  })
}

/** The server that served the console, on the same origin. */
export const serverTransport: Transport = {
  origin: window.location.origin,
  fetch: (request) => window.fetch(request),
  upload: xhrUpload,
}
