/** @module JSON Pointer (RFC 6901) tokens: the one place they are escaped and split (codegen, and validation errors' paths). */

export const escapeToken = (token: string | number): string => String(token).replace(/~/g, '~0').replace(/\//g, '~1')

export function pointerTokens(pointer: string): string[] {
  if (pointer === '' || pointer === '#') return []
  return pointer
    .replace(/^#/, '')
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
}

export function toPointer(tokens: readonly (string | number)[]): string {
  return '#' + tokens.map((t) => '/' + escapeToken(t)).join('')
}

/** The node at `pointer` in `root`, or `undefined` when any step is missing. */
export function atPointer(root: unknown, pointer: string): unknown {
  let node = root
  for (const t of pointerTokens(pointer)) {
    if (node === null || typeof node !== 'object' || !(t in node)) return undefined
    node = (node as Record<string, unknown>)[t]
  }
  return node
}
