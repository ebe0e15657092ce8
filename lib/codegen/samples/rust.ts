/**
 * @module Rust samples with reqwest's blocking client (httpsnippet has no Rust target). JSON
 * bodies go through serde_json's `json!`, uploads through `multipart::Form`. The dependencies
 * each sample needs head it as a Cargo.toml comment. It names reqwest 0.11 because that is what the
 * samples are built and run with (tests/codegen/samples-run.test.ts, Debian 12's reqwest 0.11.13).
 */
import type { HarRequest } from '@readme/httpsnippet'
import { rustString as lit } from './literals.ts'
import { requestParts } from './request-parts.ts'

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'])

/** A JSON value as `json!` input, strings as Rust literals, indented by 4 spaces from `indent`. */
function jsonTokens(value: unknown, indent: string): string {
  const inner = `${indent}    `
  if (typeof value === 'string') return lit(value)
  if (Array.isArray(value))
    return value.length ? `[\n${value.map((v) => inner + jsonTokens(v, inner)).join(',\n')}\n${indent}]` : '[]'
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
    return entries.length
      ? `{\n${entries.map(([k, v]) => `${inner}${lit(k)}: ${jsonTokens(v, inner)}`).join(',\n')}\n${indent}}`
      : '{}'
  }
  return JSON.stringify(value)
}

function body(har: HarRequest): { features: string[]; crates: string[]; setup: string[]; calls: string[] } {
  const postData = har.postData
  if (postData?.mimeType === 'multipart/form-data') {
    const { fields, files } = requestParts(har)
    return {
      features: ['multipart'],
      crates: [],
      setup: [
        '    let form = reqwest::blocking::multipart::Form::new()',
        ...fields.map(([name, value]) => `        .text(${lit(name)}, ${lit(value)})`),
        ...files.map(([name, file]) => `        .file(${lit(name)}, ${lit(file)})?`),
      ].map((line, i, all) => (i === all.length - 1 ? `${line};` : line)),
      calls: ['.multipart(form)'],
    }
  }
  if (postData?.text === undefined) return { features: [], crates: [], setup: [], calls: [] }
  if (postData.mimeType.includes('json')) {
    const value: unknown = JSON.parse(postData.text)
    return {
      features: ['json'],
      crates: ['serde_json = "1"'],
      setup: [],
      calls: [`.json(&serde_json::json!(${jsonTokens(value, '        ')}))`],
    }
  }
  return {
    features: [],
    crates: [],
    setup: [],
    calls: [`.header("Content-Type", ${lit(postData.mimeType)})`, `.body(${lit(postData.text)})`],
  }
}

export function rust(har: HarRequest): string {
  const { url, headers } = requestParts(har)
  const { features, crates, setup, calls } = body(har)
  const method = METHODS.has(har.method)
    ? `.${har.method.toLowerCase()}(${lit(url)})`
    : `.request(reqwest::Method::${har.method}, ${lit(url)})`
  const reqwest = `reqwest = { version = "0.11", features = [${['blocking', ...features].map((f) => `"${f}"`).join(', ')}] }`
  return [
    '// Cargo.toml: [dependencies]',
    ...[reqwest, ...crates].map((line) => `// ${line}`),
    '',
    'fn main() -> Result<(), Box<dyn std::error::Error>> {',
    ...setup,
    '    let response = reqwest::blocking::Client::new()',
    `        ${method}`,
    ...headers.map((h) => `        .header(${lit(h.name)}, ${lit(h.value)})`),
    ...calls.map((call) => `        ${call}`),
    '        .send()?;',
    '    let status = response.status();',
    '    println!("{status} {}", response.text()?);',
    '    Ok(())',
    '}',
  ].join('\n')
}
