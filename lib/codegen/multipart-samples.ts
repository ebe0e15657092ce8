/**
 * @module Multipart code samples. httpsnippet gets multipart uploads wrong outside curl (fetch
 * appends file names as strings, requests keeps only the last file, Go, Java, C#, Ruby and PHP
 * send empty parts), so uploads get these renderers, built from the same HAR request as every
 * other sample. Rust's renderer (samples/rust.ts) writes every request itself.
 */
import type { HarRequest } from '@readme/httpsnippet'
import { multipartCSharp } from './samples/csharp.ts'
import { multipartJava } from './samples/java.ts'
import { multipartPhp } from './samples/php.ts'
import { requestParts } from './samples/request-parts.ts'
import { multipartRuby } from './samples/ruby.ts'

/** A JSON string literal is also a valid string literal in JavaScript, Python and Go. */
const lit = (s: string) => JSON.stringify(s)

export function multipartJavaScript(har: HarRequest): string {
  const { fields, files, url, headers } = requestParts(har)
  return [
    "import { openAsBlob } from 'node:fs'",
    '',
    'const form = new FormData()',
    ...fields.map(([name, value]) => `form.append(${lit(name)}, ${lit(value)})`),
    ...files.map(([name, file]) => `form.append(${lit(name)}, await openAsBlob(${lit(file)}), ${lit(file)})`),
    '',
    `const response = await fetch(${lit(url)}, {`,
    `  method: ${lit(har.method)},`,
    `  headers: { ${headers.map((h) => `${lit(h.name)}: ${lit(h.value)}`).join(', ')} },`,
    '  body: form,',
    '})',
    'console.log(response.status, await response.json())',
  ].join('\n')
}

export function multipartPython(har: HarRequest): string {
  const { fields, files, url, headers } = requestParts(har)
  return [
    'import requests',
    '',
    `url = ${lit(url)}`,
    'data = {',
    ...fields.map(([name, value]) => `    ${lit(name)}: ${lit(value)},`),
    '}',
    'files = [',
    ...files.map(
      ([name, file]) => `    (${lit(name)}, (${lit(file)}, open(${lit(file)}, "rb"), "application/octet-stream")),`,
    ),
    ']',
    `headers = {${headers.map((h) => `${lit(h.name)}: ${lit(h.value)}`).join(', ')}}`,
    '',
    `response = requests.request(${lit(har.method)}, url, data=data, files=files, headers=headers)`,
    'print(response.status_code, response.json())',
  ].join('\n')
}

export function multipartGo(har: HarRequest): string {
  const { fields, files, url, headers } = requestParts(har)
  return [
    'package main',
    '',
    'import (',
    '\t"bytes"',
    '\t"fmt"',
    '\t"io"',
    '\t"mime/multipart"',
    '\t"net/http"',
    '\t"os"',
    ')',
    '',
    'func main() {',
    '\tbody := &bytes.Buffer{}',
    '\tform := multipart.NewWriter(body)',
    ...fields.map(([name, value]) => `\tform.WriteField(${lit(name)}, ${lit(value)})`),
    `\tfor _, f := range [][2]string{${files.map(([name, file]) => `{${lit(name)}, ${lit(file)}}`).join(', ')}} {`,
    '\t\tfile, err := os.Open(f[1])',
    '\t\tif err != nil {',
    '\t\t\tpanic(err)',
    '\t\t}',
    '\t\tpart, _ := form.CreateFormFile(f[0], f[1])',
    '\t\tio.Copy(part, file)',
    '\t\tfile.Close()',
    '\t}',
    '\tform.Close()',
    '',
    `\treq, _ := http.NewRequest(${lit(har.method)}, ${lit(url)}, body)`,
    '\treq.Header.Set("Content-Type", form.FormDataContentType())',
    ...headers.map((h) => `\treq.Header.Set(${lit(h.name)}, ${lit(h.value)})`),
    '\tres, err := http.DefaultClient.Do(req)',
    '\tif err != nil {',
    '\t\tpanic(err)',
    '\t}',
    '\tdefer res.Body.Close()',
    '\tout, _ := io.ReadAll(res.Body)',
    '\tfmt.Println(res.Status, string(out))',
    '}',
  ].join('\n')
}

export const MULTIPART_RENDERERS: Record<string, (har: HarRequest) => string> = {
  JavaScript: multipartJavaScript,
  Python: multipartPython,
  Go: multipartGo,
  Java: multipartJava,
  'C#': multipartCSharp,
  PHP: multipartPhp,
  Ruby: multipartRuby,
}
