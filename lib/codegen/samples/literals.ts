/**
 * @module String literals for the samples' languages. JSON's escapes are not valid everywhere:
 * Rust, Ruby and PHP spell code points `\u{…}`, Java turns `\u000a` into a line break before
 * parsing, Ruby interpolates `#{` and PHP `$name` inside double quotes.
 */

const COMMON: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' }

const isControl = (code: number) => code < 0x20 || code === 0x7f

function quote(s: string, control: (code: number) => string, special: Record<string, string> = {}): string {
  let out = '"'
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0
    out += special[ch] ?? COMMON[ch] ?? (isControl(code) ? control(code) : ch)
  }
  return `${out}"`
}

const braced = (code: number) => `\\u{${code.toString(16)}}`

export const javaString = (s: string) => quote(s, (code) => `\\${code.toString(8).padStart(3, '0')}`)
export const csharpString = (s: string) => quote(s, (code) => `\\u${code.toString(16).padStart(4, '0')}`)
export const rubyString = (s: string) => quote(s, braced, { '#': '\\#' })
export const rustString = (s: string) => quote(s, braced)

/** Single-quoted like the Guzzle samples httpsnippet writes, unless the text holds a line break or another control character. */
export function phpString(s: string): string {
  if (![...s].some((ch) => isControl(ch.codePointAt(0) ?? 0))) return `'${s.replace(/[\\']/g, '\\$&')}'`
  return quote(s, braced, { $: '\\$' })
}
