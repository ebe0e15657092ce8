/**
 * @module Code-block colours as classes. Shiki writes each token's look in both themes as an
 * inline style (`--shiki-light:#D73A49;--shiki-dark:#F97583`); a long guide carried 1,899 of them
 * (issue 29). `codeColourClasses` is a Shiki transformer that gives each declaration a class named
 * after it (`sl-d73a49 sd-f97583`); `codeColourCss` writes the rule of every declaration the two
 * themes can produce (scripts/theme-css.ts, at build). Both read the same table, built from the
 * themes, so a class never lacks its rule: a declaration outside the table stays inline. The rules
 * set the same custom properties, which Nextra's stylesheet turns into colours, light and dark alike.
 * Imported by next.config.mjs through Node's own TypeScript support: erasable syntax only.
 */
import { addClassToHast, normalizeTheme } from 'shiki'
import type { ShikiTransformer, ThemeRegistrationAny } from 'shiki'
import githubDark from 'shiki/themes/github-dark.mjs'
import githubLight from 'shiki/themes/github-light.mjs'

/** Nextra's code themes (its rehype-pretty-code defaults), by the variant name Shiki's variables carry. */
const THEMES: Record<'light' | 'dark', ThemeRegistrationAny> = { light: githubLight, dark: githubDark }

/** The highlighter's `theme` option for these themes, by name. */
export const CODE_THEMES = { light: 'github-light', dark: 'github-dark' } as const

/** Each token style Shiki writes per variant (`--shiki-light-font-style`, …), with its class infix and values. */
function declarationsOf(theme: ThemeRegistrationAny): Array<[suffix: string, infix: string, values: string[]]> {
  const { settings, fg, bg } = normalizeTheme(theme)
  const foregrounds = new Set([fg, ...settings.map((s) => s.settings.foreground)])
  const backgrounds = new Set([bg, ...foregrounds, ...settings.map((s) => s.settings.background)])
  const defined = (values: Set<string | undefined>) =>
    [...values].filter((v): v is string => v !== undefined).map((v) => v.toLowerCase())
  return [
    ['', '', defined(foregrounds)],
    ['-bg', 'b', defined(backgrounds)],
    ['-font-style', 'i', ['italic']],
    ['-font-weight', 'w', ['bold']],
    ['-text-decoration', 'u', ['underline']],
  ]
}

/** `--shiki-light:#d73a49` → `sl-d73a49`: every declaration the themes can produce, by its class. */
function buildTable(): Map<string, string> {
  const table = new Map<string, string>()
  for (const [variant, theme] of Object.entries(THEMES)) {
    for (const [suffix, infix, values] of declarationsOf(theme)) {
      for (const value of [...values, 'inherit'])
        table.set(`--shiki-${variant}${suffix}:${value}`, `s${variant[0]}${infix}-${value.replace(/^#/, '')}`)
    }
  }
  return table
}

const TABLE = buildTable()

/** The CSS rule of every class the transformer can write. */
export function codeColourCss(): string {
  return [...TABLE].map(([declaration, name]) => `.${name}{${declaration}}`).join('\n')
}

/** A token's inline style as classes; declarations outside the table stay in `style`. */
export function classesForStyle(style: string): { classes: string[]; rest: string } {
  const classes: string[] = []
  const rest: string[] = []
  for (const part of style.split(';')) {
    const declaration = part.trim()
    if (!declaration) continue
    const colon = declaration.indexOf(':')
    const key = `${declaration.slice(0, colon).trim()}:${declaration
      .slice(colon + 1)
      .trim()
      .toLowerCase()}`
    const name = colon > 0 ? TABLE.get(key) : undefined
    if (name) classes.push(name)
    else rest.push(declaration)
  }
  return { classes, rest: rest.join(';') }
}

/** The Shiki transformer: each token span's style becomes classes. */
export function codeColourClasses(): ShikiTransformer {
  return {
    name: 'ferry:code-colour-classes',
    span(node) {
      const style = node.properties.style
      if (typeof style !== 'string') return
      const { classes, rest } = classesForStyle(style)
      if (classes.length === 0) return
      addClassToHast(node, classes)
      if (rest) node.properties.style = rest
      else delete node.properties.style
    },
  }
}
