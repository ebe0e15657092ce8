/**
 * @module An operation's `x-codeSamples` (Redocly's extension: a list of `{ lang, label?, source }`)
 * → code samples, each labelled by its `label` (else its `lang`). A sample in a language the site
 * cannot check, or a tab label the page already has, fails at its pointer.
 */
import type { Context, Json } from '../context.ts'
import type { CodeSample } from '../model.ts'
import { CONTRACT_SAMPLE_LANGS, SAMPLE_TARGETS } from '../samples.ts'

export function transformCodeSamples(ctx: Context, operation: Json, pointer: string): CodeSample[] {
  const list = operation['x-codeSamples']
  if (list === undefined) return []
  const at = `${pointer}/x-codeSamples`
  if (!Array.isArray(list)) throw ctx.spec.errorAt(at, 'x-codeSamples must be a list of { lang, label?, source }')
  const labels = new Set(SAMPLE_TARGETS.map((t) => t.label))
  return list.map((item: unknown, i) => {
    const itemAt = `${at}/${i}`
    if (!item || typeof item !== 'object' || Array.isArray(item))
      throw ctx.spec.errorAt(itemAt, 'a code sample must be an object { lang, label?, source }')
    const { lang, label, source } = item as Json
    if (typeof lang !== 'string' || !lang.trim()) throw ctx.spec.errorAt(itemAt, 'code sample needs `lang`')
    const language = CONTRACT_SAMPLE_LANGS[lang.trim().toLowerCase()]
    if (!language)
      throw ctx.spec.errorAt(
        `${itemAt}/lang`,
        `unknown lang ${JSON.stringify(lang)}: use one of ${Object.keys(CONTRACT_SAMPLE_LANGS).join(', ')}`,
      )
    if (label !== undefined && (typeof label !== 'string' || !label.trim()))
      throw ctx.spec.errorAt(`${itemAt}/label`, 'code sample `label` must be a non-empty string')
    if (typeof source !== 'string' || !source.trim())
      throw ctx.spec.errorAt(itemAt, 'code sample needs `source` (the code, as a string)')
    const tab = (label ?? lang).trim()
    if (labels.has(tab))
      throw ctx.spec.errorAt(itemAt, `tab ${JSON.stringify(tab)} is already on the page: give the sample a \`label\``)
    labels.add(tab)
    return { label: tab, language, code: source.trimEnd() }
  })
}
