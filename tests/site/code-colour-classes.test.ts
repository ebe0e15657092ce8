/**
 * Code-block colours as classes (lib/code-colour-classes.ts): every token keeps exactly the
 * light and dark look Shiki gave it inline, now through a class whose rule the stylesheet has.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { codeToHtml } from 'shiki'
import { CODE_THEMES, codeColourClasses, codeColourCss } from '../../lib/code-colour-classes.ts'

/** A sample in each language the guides use most, with comments, strings, keywords and markup. */
const SAMPLES: Array<[lang: string, code: string]> = [
  ['bash', '# comment\nexport FERRY_URL="http://127.0.0.1:8080" && curl -sf "$FERRY_URL/v1/apps" | jq .'],
  [
    'ts',
    "// note\nimport { x } from 'y'\nconst a: number = 1 as const\nexport async function f<T>(v: T) { return `${v}` }",
  ],
  ['json', '{ "name": "app", "version": "1.2.3", "ok": true, "n": null }'],
  ['yaml', 'services:\n  ferry:\n    image: ferry # pinned\n    ports: ["8080:8080"]'],
  ['go', 'package main\nfunc main() { fmt.Println("hi") }'],
  ['python', 'def f(x: int) -> str:\n    """doc"""\n    return f"{x}"'],
  ['markdown', '# Title\n*italic* **bold** [link](http://x) `code`\n- item'],
  ['diff', '--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new'],
  ['nginx', 'server { listen 443 ssl; location / { proxy_pass http://127.0.0.1:8080; } }'],
]

const highlight = (code: string, lang: string, transformers = [codeColourClasses()]) =>
  codeToHtml(code, { lang, themes: CODE_THEMES, defaultColor: false, transformers })

/** Each token's declarations, in order: from its inline style, or from the CSS rules of its classes. */
function tokenLooks(html: string, rules: Map<string, string>): string[] {
  const looks: string[] = []
  for (const [, attributes] of html.matchAll(/<span ([^>]*)>[^<]/g)) {
    const style = /style="([^"]*)"/.exec(attributes!)?.[1] ?? ''
    const classes = /class="([^"]*)"/.exec(attributes!)?.[1]?.split(' ') ?? []
    const declarations = [
      ...style.split(';').filter(Boolean),
      ...classes.filter((c) => c !== 'line').map((c) => rules.get(c) ?? `no rule for .${c}`),
    ]
    looks.push(
      declarations
        .map((d) => d.toLowerCase())
        .sort()
        .join(';'),
    )
  }
  return looks
}

function cssRules(): Map<string, string> {
  const rules = new Map<string, string>()
  for (const [, name, declaration] of codeColourCss().matchAll(/^\.([\w-]+)\{([^}]*)\}$/gm))
    rules.set(name!, declaration!)
  return rules
}

test('every highlighted token keeps its light and dark colours and font styles, as classes with a rule each', async () => {
  const rules = cssRules()
  for (const [lang, code] of SAMPLES) {
    const before = await highlight(code, lang, [])
    const after = await highlight(code, lang)
    assert.match(before, /--shiki-light:/, `${lang}: the inline styles this replaces`)
    assert.doesNotMatch(after, /<span [^>]*style="[^"]*--shiki-/, `${lang}: no token keeps an inline colour`)
    assert.deepEqual(tokenLooks(after, rules), tokenLooks(before, new Map()), `${lang}: each token looks as before`)
  }
})

test('a declaration the themes cannot produce stays inline rather than become a class without a rule', async () => {
  const odd = {
    name: 'odd',
    span(node: { properties: Record<string, unknown> }) {
      node.properties.style = `${String(node.properties.style)};--shiki-light:#123456`
    },
  }
  const html = await highlight('echo hi', 'bash', [odd, codeColourClasses()])
  assert.match(html, /style="--shiki-light:#123456"/)
  assert.doesNotMatch(codeColourCss(), /123456/)
})
