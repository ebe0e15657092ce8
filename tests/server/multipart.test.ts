/**
 * Multipart uploads: the parser reads what browsers and undici send, however the bytes are
 * chunked, and every malformed part layout is a 400 naming what is wrong, with no blob and no
 * version left behind (also when files of the same request were already stored).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import {
  boundaryOf,
  createMultipartParser,
  MultipartError,
  type PartHeaders,
} from '../../server/transfer/multipart-parser.ts'
import { bearer, expectProblem, memoryApp, prepareUploadTeam } from './helpers.ts'

const B = 'ferry-test-boundary'
const encoder = new TextEncoder()
const field = (name: string, value: string) =>
  `--${B}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
const FIELDS =
  field('version', '1.0.0') + field('channel', 'stable') + field('platform', 'windows') + field('arch', 'x64')
const part = (headers: string, body = 'bytes') => `--${B}\r\n${headers}\r\n\r\n${body}\r\n`
const FILE = part('Content-Disposition: form-data; name="files"; filename="stored-first.exe"')
const END = `--${B}--\r\n`

interface Parsed {
  part: PartHeaders
  bytes: string
}

/** Parses `body` fed in the given chunk sizes (cycled). */
function parse(body: Uint8Array, boundary: string, sizes: number[] = [body.length || 1]): Parsed[] {
  const parser = createMultipartParser(boundary, 1000)
  const out: Parsed[] = []
  const decoder = new TextDecoder('latin1')
  for (let at = 0, i = 0; at < body.length; i++) {
    const size = Math.max(1, sizes[i % sizes.length]!)
    for (const e of parser.write(body.subarray(at, at + size))) {
      if (e.kind === 'part') out.push({ part: e.part, bytes: '' })
      else if (e.kind === 'data') out[out.length - 1]!.bytes += decoder.decode(e.chunk)
    }
    at += size
  }
  parser.end()
  return out
}

test('any chunking of a form encoded by undici parses to the same names, file names and bytes', async () => {
  const name = fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' })
  const text = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.constantFrom('\r\n--', `\r\n--${B}`, '--', '\r\n\r\n', 'a\r'),
  )
  const bytes = fc.oneof(
    fc.uint8Array({ maxLength: 300 }),
    fc.constantFrom(encoder.encode(`\r\n--${B}-`), encoder.encode('\r\n--\r\n'), encoder.encode('\r\r\n\r\n-')),
  )
  const entry = fc.oneof(
    fc.record({ name, value: text }),
    fc.record({ name, file: fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' }), data: bytes }),
  )
  await fc.assert(
    fc.asyncProperty(
      fc.array(entry, { minLength: 1, maxLength: 6 }),
      fc.array(fc.integer({ min: 1, max: 97 }), { minLength: 1, maxLength: 8 }),
      async (entries, sizes) => {
        const form = new FormData()
        for (const e of entries) {
          if ('value' in e) form.append(e.name, e.value)
          else form.append(e.name, new File([e.data as BlobPart], e.file))
        }
        const encoded = new Response(form)
        const type = boundaryOf(encoded.headers.get('content-type') ?? '')
        assert.ok('boundary' in type)
        const body = new Uint8Array(await encoded.arrayBuffer())
        const whole = parse(body, type.boundary)
        assert.deepEqual(parse(body, type.boundary, sizes), whole, 'chunking changes nothing')
        const latin1 = (data: Uint8Array) => new TextDecoder('latin1').decode(data)
        assert.deepEqual(
          whole.map((p) => [p.part.name, p.part.filename, p.bytes]),
          entries.map((e) =>
            'value' in e
              ? [
                  e.name.replace(/\r\n|\r|\n/g, '\r\n'),
                  undefined,
                  latin1(encoder.encode(e.value.replace(/\r\n|\r|\n/g, '\r\n'))),
                ]
              : [e.name.replace(/\r\n|\r|\n/g, '\r\n'), e.file, latin1(e.data)],
          ),
        )
      },
    ),
    { seed: 1, numRuns: 200 },
  )
})

test('boundaries in Content-Type: quoted, with other parameters; refused when missing, empty, too long or given twice', () => {
  assert.deepEqual(boundaryOf('multipart/form-data; boundary=abc'), { boundary: 'abc' })
  assert.deepEqual(boundaryOf('Multipart/Form-Data; charset=utf-8; boundary="a b:c"'), { boundary: 'a b:c' })
  for (const bad of [
    'multipart/form-data',
    'multipart/mixed; boundary=abc',
    'text/plain',
    'multipart/form-data; boundary=',
    'multipart/form-data; boundary=""',
    `multipart/form-data; boundary=${'x'.repeat(71)}`,
    'multipart/form-data; boundary=a; boundary=b',
    'multipart/form-data; boundary="ends in space "',
    'multipart/form-data; boundary=a\u00e9',
  ]) {
    assert.ok('problem' in boundaryOf(bad), bad)
  }
})

test('valid layouts other clients send: preamble, epilogue, padding after a boundary, filename*, no trailing CRLF', () => {
  const body =
    `preamble text\r\n--${B}  \r\nContent-Disposition: form-data; name="a"\r\n\r\nA\r\n` +
    `--${B}\r\ncontent-disposition: FORM-DATA;name=files;filename*=UTF-8''caf%C3%A9.exe\r\nContent-Type: application/octet-stream\r\n\r\n\r\n--x\r\n` +
    `--${B}--epilogue`
  const parts = parse(encoder.encode(body), B, [5])
  assert.deepEqual(
    parts.map((p) => [p.part.name, p.part.filename, p.bytes]),
    [
      ['a', undefined, 'A'],
      ['files', 'café.exe', '\r\n--x'],
    ],
  )
  assert.throws(() => parse(encoder.encode(`--${B}\r\n`), B), MultipartError)
})

/** Each body is malformed in one way; `says` must appear in the problem's message. */
const MALFORMED: Record<string, { body: string; says: RegExp; type?: string }> = {
  'a part with headers but no blank line (first part)': {
    body: `--${B}\r\nContent-Disposition: form-data; name="version"\r\n${END}`,
    says: /part 1 has no blank line after its headers/,
  },
  'a part with headers but no blank line (after a file)': {
    body:
      FIELDS +
      FILE +
      `--${B}\r\nContent-Disposition: form-data; name="x"\r\n` +
      part('Content-Disposition: form-data; name="files"; filename="evil.exe"') +
      END,
    says: /part 6 has no blank line after its headers/,
  },
  'a part without Content-Disposition': {
    body: FIELDS + FILE + part('Content-Type: text/plain') + END,
    says: /part 6 has no Content-Disposition/,
  },
  'a part without a name': {
    body: FIELDS + FILE + part('Content-Disposition: form-data; filename="b.exe"') + END,
    says: /part 6 has no name/,
  },
  'a part with an empty name': {
    body: FIELDS + FILE + part('Content-Disposition: form-data; name=""') + END,
    says: /part 6 has an empty name/,
  },
  'a part that is not form-data': {
    body: FIELDS + FILE + part('Content-Disposition: attachment; name="files"; filename="b.exe"') + END,
    says: /part 6 has Content-Disposition "attachment"/,
  },
  'a file name in broken percent-encoding (filename*)': {
    body: FIELDS + FILE + part('Content-Disposition: form-data; name="files"; filename*=UTF-8\'\'%E0%A4%A') + END,
    says: /part 6 \("files"\) has a filename\* that is not valid/,
  },
  'a duplicated Content-Disposition': {
    body:
      FIELDS +
      FILE +
      part(
        'Content-Disposition: form-data; name="files"; filename="b.exe"\r\nContent-Disposition: form-data; name="version"',
      ) +
      END,
    says: /part 6 sends its Content-Disposition header twice/,
  },
  'a duplicated Content-Type': {
    body:
      FIELDS +
      FILE +
      part('Content-Disposition: form-data; name="files"; filename="b.exe"\r\nContent-Type: a/b\r\ncontent-type: c/d') +
      END,
    says: /part 6 sends its content-type header twice/i,
  },
  'a duplicated parameter': {
    body: FIELDS + FILE + part('Content-Disposition: form-data; name="files"; name="version"') + END,
    says: /gives the Content-Disposition parameter name twice/,
  },
  'nested multipart': {
    body:
      FIELDS +
      part(
        'Content-Disposition: form-data; name="files"\r\nContent-Type: multipart/mixed; boundary=inner',
        '--inner\r\nContent-Disposition: file; filename="a.exe"\r\n\r\nx\r\n--inner--',
      ) +
      END,
    says: /part 5 \("files"\) is itself multipart/,
  },
  'a transfer encoding': {
    body:
      FIELDS +
      part(
        'Content-Disposition: form-data; name="files"; filename="b.exe"\r\nContent-Transfer-Encoding: base64',
        'eA==',
      ) +
      END,
    says: /Content-Transfer-Encoding base64/,
  },
  'a part with no headers': {
    body: FIELDS + FILE + `--${B}\r\n\r\nbytes\r\n` + END,
    says: /part 6 has no Content-Disposition/,
  },
  'a folded header line': {
    body: FIELDS + part('Content-Disposition: form-data;\r\n name="files"; filename="b.exe"') + END,
    says: /part 5 has a folded header line/,
  },
  'a NUL in a header': {
    body: FIELDS + part('Content-Disposition: form-data; name="files"; filename="a\u0000.exe"') + END,
    says: /part 5 has a control character/,
  },
  'headers over 16 KiB': {
    body:
      FIELDS +
      FILE +
      part(`Content-Disposition: form-data; name="files"; filename="b.exe"\r\nX-Big: ${'a'.repeat(17000)}`) +
      END,
    says: /part 6 has headers longer than 16384 bytes/,
  },
  'too many headers': {
    body:
      FIELDS + part(`Content-Disposition: form-data; name="files"; filename="b.exe"${'\r\nX-A: 1'.repeat(40)}`) + END,
    says: /part 5 has more than 32 headers/,
  },
  'a malformed header line': {
    body: FIELDS + part('Content-Disposition: form-data; name="files"; filename="b.exe"\r\nno colon here') + END,
    says: /part 5 has a malformed header line/,
  },
  'headers that are not UTF-8': {
    body: FIELDS + part('Content-Disposition: form-data; name="files"; filename="\udc80.exe"') + END,
    says: /part 5 has headers that are not valid UTF-8|control character|malformed/,
  },
  'no closing boundary': { body: FIELDS + FILE, says: /ends before its closing boundary/ },
  'a body cut off in a file': {
    body: FIELDS + `--${B}\r\nContent-Disposition: form-data; name="files"; filename="b.exe"\r\n\r\nhalf a fi`,
    says: /ends before its closing boundary/,
  },
  'a body cut off in headers': {
    body: FIELDS + `--${B}\r\nContent-Disposition: form-data; na`,
    says: /ends inside the headers of part 5/,
  },
  'a boundary that does not match Content-Type': {
    body: FIELDS + FILE + END,
    type: 'multipart/form-data; boundary=something-else',
    says: /has no line --something-else/,
  },
  'an empty body': { body: '', says: /is empty/ },
  'LF line endings': { body: (FIELDS + FILE + END).replace(/\r\n/g, '\n'), says: /bare LF/ },
  'a boundary line with trailing characters': {
    body: FIELDS + FILE + `--${B}xyz\r\n` + END,
    says: /starts with the boundary/,
  },
  'a text field that is not UTF-8': {
    body:
      FIELDS.replace('name="version"\r\n', 'name="changelog"\r\nContent-Type: text/plain; charset=utf-8\r\n').replace(
        '1.0.0',
        '\u00ff',
      ) +
      FILE +
      END,
    says: /is not valid utf-8/,
  },
}

test('every malformed layout is a 400 naming what is wrong, and leaves no blob and no version', async () => {
  const m = await memoryApp()
  const token = await prepareUploadTeam(m.fetch, 'multi-app')
  const post = (body: Uint8Array<ArrayBuffer>, type: string) =>
    m.fetch('/v1/apps/multi-app/versions', bearer(token, { method: 'POST', body, headers: { 'content-type': type } }))
  for (const [layout, { body, says, type }] of Object.entries(MALFORMED)) {
    // Latin-1 bytes where the body spells them, so an invalid UTF-8 byte reaches the server as is.
    const bytes = layout.includes('UTF-8') ? Uint8Array.from(body, (c) => c.charCodeAt(0) & 0xff) : encoder.encode(body)
    const problem = await expectProblem(
      await post(bytes, type ?? `multipart/form-data; boundary=${B}`),
      400,
      'validation',
    )
    const named = problem.errors?.find((e) => says.test(e.message))
    assert.ok(named, `${layout}: ${JSON.stringify(problem.errors)}`)
    assert.ok(
      named.field === 'body' || named.field === 'changelog' || named.field === 'version',
      `${layout}: names ${named.field}`,
    )
    assert.deepEqual(await m.blobs.list(), [], `${layout}: no blob kept`)
  }
  const versions = (await (await m.fetch('/v1/apps/multi-app/versions', bearer(token))).json()) as { items: unknown[] }
  assert.equal(versions.items.length, 0, 'no version row')
  // The same request, well formed, is stored.
  const ok = await post(encoder.encode(FIELDS + FILE + END), `multipart/form-data; boundary=${B}`)
  assert.equal(ok.status, 201, await ok.text())
})
