/**
 * @module PHP samples with Guzzle, like httpsnippet's guzzle client writes for JSON requests.
 * Not PHP's curl functions: their form array cannot repeat a field name, and an upload sends
 * every file as a `files` part.
 */
import type { HarRequest } from '@readme/httpsnippet'
import { phpString as lit } from './literals.ts'
import { requestParts } from './request-parts.ts'

export function multipartPhp(har: HarRequest): string {
  const { fields, files, url, headers } = requestParts(har)
  return [
    '<?php',
    "require_once('vendor/autoload.php');",
    '',
    '$client = new \\GuzzleHttp\\Client();',
    '',
    `$response = $client->request(${lit(har.method)}, ${lit(url)}, [`,
    "  'multipart' => [",
    ...fields.map(([name, value]) => `    ['name' => ${lit(name)}, 'contents' => ${lit(value)}],`),
    ...files.map(
      ([name, file]) =>
        `    ['name' => ${lit(name)}, 'contents' => fopen(${lit(file)}, 'r'), 'filename' => ${lit(file)}],`,
    ),
    '  ],',
    "  'headers' => [",
    ...headers.map((h) => `    ${lit(h.name)} => ${lit(h.value)},`),
    '  ],',
    ']);',
    '',
    'echo $response->getBody();',
  ].join('\n')
}
