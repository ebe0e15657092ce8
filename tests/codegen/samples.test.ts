import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildHar, renderSamples } from '../../lib/codegen/samples.ts'
import { loadReal } from './helpers.ts'

const { ctx, tags } = await loadReal()
const op = (id: string) => tags.flatMap((t) => t.operations).find((o) => o.operationId === id)!

test('the curl sample for createApp sends the example body as JSON', () => {
  const create = op('createApp')
  const curl = renderSamples(buildHar(create, ctx.serverUrl)).find((s) => s.label === 'curl')!.code
  assert.match(curl, /--request POST/)
  assert.match(curl, /--url https:\/\/updates\.acme\.test\/v1\/apps\b/)
  assert.match(curl, /--header 'Authorization: Bearer <token>'/)
  const data = /--data '([\s\S]*)'/.exec(curl)?.[1]
  assert.ok(data, 'curl sample has no --data')
  assert.deepEqual(JSON.parse(data), create.requestBody!.example)
})

test('samples fill path, query and header parameters from their examples', () => {
  const har = buildHar(op('checkForUpdate'), ctx.serverUrl)
  assert.equal(har.url, 'https://updates.acme.test/v1/apps/harbor-notes/update')
  assert.deepEqual(Object.fromEntries(har.queryString.map((q: { name: string; value: string }) => [q.name, q.value])), {
    version: '1.2.3',
    channel: 'stable',
    platform: 'windows',
    arch: 'x64',
    format: 'ferry',
    cohort: 'acme-corp',
    attributes: 'os_version=14.2.1,edition=pro',
    manual: 'true',
  })
  assert.deepEqual(har.headers, [
    { name: 'X-Ferry-Device-Id', value: '6f1c9a52-3b7e-4d0a-9c1e-2f5b8d7a4e10' },
    { name: 'X-Ferry-Cohort', value: 'acme-corp' },
    { name: 'X-Ferry-Attributes', value: 'os_version=14.2.1,edition=pro' },
    { name: 'X-Ferry-Manual', value: 'true' },
  ])
})

test('signup samples send the signup key instead of a bearer token', () => {
  const har = buildHar(op('signup'), ctx.serverUrl)
  assert.deepEqual(
    har.headers.map((h: { name: string }) => h.name),
    ['X-Ferry-Signup-Key', 'Content-Type'],
  )
})

test('upload samples send each file as its own form part', () => {
  const curl = renderSamples(buildHar(op('uploadVersion'), ctx.serverUrl))[0]!.code
  assert.match(curl, /--form files='@HarborNotes-Setup-1\.4\.0\.exe'/)
  assert.match(curl, /--form files='@harbor-notes-1\.4\.0-full\.nupkg'/)
  assert.match(curl, /--form version=1\.4\.0/)
})

test('upload samples send every file as a file part in JavaScript, Python and Go', () => {
  const upload = op('uploadVersion')
  const samples = Object.fromEntries(renderSamples(buildHar(upload, ctx.serverUrl)).map((s) => [s.label, s.code]))
  const files = ['HarborNotes-Setup-1.4.0.exe', 'harbor-notes-1.4.0-full.nupkg']
  for (const file of files) {
    assert.match(samples.curl!, new RegExp(`files='@${file.replace(/\./g, '\\.')}'`))
    assert.ok(
      samples.JavaScript!.includes(`form.append("files", await openAsBlob("${file}"), "${file}")`),
      samples.JavaScript,
    )
    assert.ok(
      samples.Python!.includes(`("files", ("${file}", open("${file}", "rb"), "application/octet-stream"))`),
      samples.Python,
    )
    assert.ok(samples.Go!.includes(`{"files", "${file}"}`), samples.Go)
  }
  assert.match(samples.JavaScript!, /form\.append\("version", "1\.4\.0"\)/)
  assert.match(samples.Python!, /"channel": "stable",/)
  assert.match(samples.Go!, /form\.WriteField\("arch", "x64"\)/)
  assert.match(samples.Go!, /req\.Header\.Set\("Content-Type", form\.FormDataContentType\(\)\)/)
  for (const code of [samples.JavaScript!, samples.Python!, samples.Go!]) assert.match(code, /Bearer <token>/)
})

test("samples come in nine languages, in the tabs' order", () => {
  const samples = renderSamples(buildHar(op('createApp'), ctx.serverUrl))
  assert.deepEqual(
    samples.map((s) => s.label),
    ['curl', 'JavaScript', 'Python', 'Go', 'Java', 'C#', 'PHP', 'Ruby', 'Rust'],
  )
  assert.deepEqual(
    samples.map((s) => s.language),
    ['bash', 'js', 'python', 'go', 'java', 'csharp', 'php', 'ruby', 'rust'],
  )
})

test('Java, C#, PHP, Ruby and Rust samples send the example body and the credentials', () => {
  const create = op('createApp')
  const samples = Object.fromEntries(renderSamples(buildHar(create, ctx.serverUrl)).map((s) => [s.label, s.code]))
  for (const label of ['Java', 'C#', 'PHP', 'Ruby', 'Rust']) {
    assert.match(samples[label]!, /https:\/\/updates\.acme\.test\/v1\/apps\b/, label)
    assert.match(samples[label]!, /Bearer <token>/, label)
    assert.match(samples[label]!, /saltmarsh/, label)
  }
  assert.match(samples.Java!, /^import java\.net\.http\.HttpClient;$/m)
  assert.match(samples.Java!, /^ {4}\.POST\(HttpRequest\.BodyPublishers\.ofString\(/m)
  assert.match(samples.PHP!, /new \\GuzzleHttp\\Client\(\)/)
  assert.match(samples.Ruby!, /Net::HTTP::Post\.new\(url\)/)
  const json = /serde_json::json!\(([\s\S]*?)\)\)\n/.exec(samples.Rust!)?.[1]
  assert.ok(json, samples.Rust)
  assert.deepEqual(JSON.parse(json), create.requestBody!.example)
  assert.match(samples.Rust!, /features = \["blocking", "json"\]/)
})

test("Java samples use the builder's named methods", () => {
  const java = (id: string) => renderSamples(buildHar(op(id), ctx.serverUrl)).find((s) => s.label === 'Java')!.code
  assert.match(java('checkForUpdate'), /^ {4}\.GET\(\)$/m)
  assert.doesNotMatch(java('checkForUpdate'), /noBody/)
})

test('upload samples send every file as a file part in Java, C#, PHP, Ruby and Rust', () => {
  const samples = Object.fromEntries(
    renderSamples(buildHar(op('uploadVersion'), ctx.serverUrl)).map((s) => [s.label, s.code]),
  )
  for (const file of ['HarborNotes-Setup-1.4.0.exe', 'harbor-notes-1.4.0-full.nupkg']) {
    assert.ok(samples.Java!.includes(`{"files", "${file}"}`), samples.Java)
    assert.ok(
      samples['C#']!.includes(`{ new StreamContent(File.OpenRead("${file}")), "files", "${file}" },`),
      samples['C#'],
    )
    assert.ok(
      samples.PHP!.includes(`['name' => 'files', 'contents' => fopen('${file}', 'r'), 'filename' => '${file}'],`),
      samples.PHP,
    )
    assert.ok(samples.Ruby!.includes(`["files", File.open("${file}", "rb")],`), samples.Ruby)
    assert.ok(samples.Rust!.includes(`.file("files", "${file}")?`), samples.Rust)
  }
  assert.match(samples.Java!, /BodyPublishers\.ofFile\(Path\.of\(file\[1\]\)\)/)
  assert.match(samples.Java!, /\.header\("Content-Type", "multipart\/form-data; boundary=" \+ boundary\)/)
  assert.match(samples['C#']!, /\{ new StringContent\("1\.4\.0"\), "version" \},/)
  assert.match(samples.PHP!, /'contents' => "- Tags for notes\\n- Faster sync on slow networks\\n"/)
  assert.match(samples.Ruby!, /request\.set_form\(\[[\s\S]*\], "multipart\/form-data"\)/)
  assert.match(samples.Rust!, /\.text\("arch", "x64"\)/)
  assert.match(samples.Rust!, /features = \["blocking", "multipart"\]/)
  for (const label of ['Java', 'C#', 'PHP', 'Ruby', 'Rust']) {
    assert.match(samples[label]!, /Bearer <token>/, label)
    assert.doesNotMatch(
      samples[label]!,
      /011000010111000001101001/,
      `${label}: httpsnippet's hand-written body with empty files`,
    )
  }
})
