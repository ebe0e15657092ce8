/**
 * @module Java samples with java.net.http (JDK 11+, no dependencies). httpsnippet's nethttp client
 * writes the statements; `tidyJava` adds the imports they need and uses the builder's named
 * methods. Multipart: java.net.http has no form encoder, so `multipartJava` writes the parts
 * by hand, streaming each file with `BodyPublishers.ofFile`.
 */
import type { HarRequest } from '@readme/httpsnippet'
import { javaString as lit } from './literals.ts'
import { requestParts } from './request-parts.ts'

const IMPORTS = ['java.net.URI', 'java.net.http.HttpClient', 'java.net.http.HttpRequest', 'java.net.http.HttpResponse']
const MULTIPART_IMPORTS = [...IMPORTS, 'java.nio.file.Path', 'java.util.ArrayList', 'java.util.List', 'java.util.UUID']

const importLines = (names: string[]) => names.map((name) => `import ${name};`)

export function tidyJava(code: string): string {
  const named = code
    .replace(/^(\s*)\.method\("(GET|DELETE)", HttpRequest\.BodyPublishers\.noBody\(\)\)$/m, '$1.$2()')
    .replace(/^(\s*)\.method\("(POST|PUT)", (HttpRequest\.BodyPublishers\..*)\)$/m, '$1.$2($3)')
  return [...importLines(IMPORTS), '', named].join('\n')
}

/** The builder's call that sends `body` with `method`. */
function withBody(method: string, body: string): string {
  return method === 'POST' || method === 'PUT' ? `.${method}(${body})` : `.method(${lit(method)}, ${body})`
}

export function multipartJava(har: HarRequest): string {
  const { fields, files, url, headers } = requestParts(har)
  const pairs = (list: (readonly [string, string])[]) =>
    list.map(([a, b], i) => `  {${lit(a)}, ${lit(b)}}${i < list.length - 1 ? ',' : ''}`)
  return [
    ...importLines(MULTIPART_IMPORTS),
    '',
    '// java.net.http has no multipart encoder: the form is written part by part.',
    'String boundary = "ferry-" + UUID.randomUUID();',
    'List<HttpRequest.BodyPublisher> parts = new ArrayList<>();',
    'String[][] fields = {',
    ...pairs(fields),
    '};',
    'for (String[] field : fields) {',
    '  parts.add(HttpRequest.BodyPublishers.ofString("--" + boundary + "\\r\\nContent-Disposition: form-data; name=\\"" + field[0] + "\\"\\r\\n\\r\\n" + field[1] + "\\r\\n"));',
    '}',
    'String[][] files = {',
    ...pairs(files),
    '};',
    'for (String[] file : files) {',
    '  parts.add(HttpRequest.BodyPublishers.ofString("--" + boundary + "\\r\\nContent-Disposition: form-data; name=\\"" + file[0] + "\\"; filename=\\"" + file[1] + "\\"\\r\\nContent-Type: application/octet-stream\\r\\n\\r\\n"));',
    '  parts.add(HttpRequest.BodyPublishers.ofFile(Path.of(file[1])));',
    '  parts.add(HttpRequest.BodyPublishers.ofString("\\r\\n"));',
    '}',
    'parts.add(HttpRequest.BodyPublishers.ofString("--" + boundary + "--\\r\\n"));',
    '',
    'HttpRequest request = HttpRequest.newBuilder()',
    `    .uri(URI.create(${lit(url)}))`,
    ...headers.map((h) => `    .header(${lit(h.name)}, ${lit(h.value)})`),
    '    .header("Content-Type", "multipart/form-data; boundary=" + boundary)',
    `    ${withBody(har.method, 'HttpRequest.BodyPublishers.concat(parts.toArray(HttpRequest.BodyPublisher[]::new))')}`,
    '    .build();',
    'HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());',
    'System.out.println(response.statusCode() + " " + response.body());',
  ].join('\n')
}
