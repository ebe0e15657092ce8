/**
 * @module C# samples with HttpClient (.NET 6+ top-level statements and implicit usings).
 * httpsnippet's httpclient client writes JSON requests; uploads use MultipartFormDataContent
 * with a StreamContent per file.
 */
import type { HarRequest } from '@readme/httpsnippet'
import { csharpString as lit } from './literals.ts'
import { requestParts } from './request-parts.ts'

const NAMED_METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE'])

function httpMethod(method: string): string {
  return NAMED_METHODS.has(method)
    ? `HttpMethod.${method[0]}${method.slice(1).toLowerCase()}`
    : `new HttpMethod(${lit(method)})`
}

/** A blank line between the using directives and the statements. */
export function tidyCSharp(code: string): string {
  return code.replace(/^((?:using [\w.]+;\n)+)(?!\n)/, '$1\n')
}

export function multipartCSharp(har: HarRequest): string {
  const { fields, files, url, headers } = requestParts(har)
  return [
    'var client = new HttpClient();',
    'var form = new MultipartFormDataContent',
    '{',
    ...fields.map(([name, value]) => `  { new StringContent(${lit(value)}), ${lit(name)} },`),
    ...files.map(([name, file]) => `  { new StreamContent(File.OpenRead(${lit(file)})), ${lit(name)}, ${lit(file)} },`),
    '};',
    `var request = new HttpRequestMessage(${httpMethod(har.method)}, ${lit(url)})`,
    '{',
    '  Headers =',
    '  {',
    ...headers.map((h) => `    { ${lit(h.name)}, ${lit(h.value)} },`),
    '  },',
    '  Content = form,',
    '};',
    'using (var response = await client.SendAsync(request))',
    '{',
    '  response.EnsureSuccessStatusCode();',
    '  var body = await response.Content.ReadAsStringAsync();',
    '  Console.WriteLine(body);',
    '}',
  ].join('\n')
}
