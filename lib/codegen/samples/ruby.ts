/** @module Ruby uploads with Net::HTTP (no gems): `set_form` in multipart mode, one IO per file. */
import type { HarRequest } from '@readme/httpsnippet'
import { rubyString as lit } from './literals.ts'
import { requestParts } from './request-parts.ts'

export function multipartRuby(har: HarRequest): string {
  const { fields, files, url, headers } = requestParts(har)
  const method = har.method[0] + har.method.slice(1).toLowerCase()
  return [
    "require 'uri'",
    "require 'net/http'",
    '',
    `url = URI(${lit(url)})`,
    '',
    'http = Net::HTTP.new(url.host, url.port)',
    ...(url.startsWith('https:') ? ['http.use_ssl = true'] : []),
    '',
    `request = Net::HTTP::${method}.new(url)`,
    ...headers.map((h) => `request[${lit(h.name)}] = ${lit(h.value)}`),
    'request.set_form([',
    ...fields.map(([name, value]) => `  [${lit(name)}, ${lit(value)}],`),
    ...files.map(([name, file]) => `  [${lit(name)}, File.open(${lit(file)}, "rb")],`),
    '], "multipart/form-data")',
    '',
    'response = http.request(request)',
    'puts response.read_body',
  ].join('\n')
}
