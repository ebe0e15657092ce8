/**
 * Where live-samples.ts keeps the page's own samples while it shows Try it's request in them: a
 * template after each sample's code. Apart from it, so the page's eager code can put the samples
 * back without loading the sample renderers.
 */
export const ORIGINAL = 'template[data-ferry-sample-original]'
export const NOTE_CLASS = 'ferry-samples-live'

/** Puts the page's own samples back under `root` (the page, or a copy of its content). */
export function restoreSamples(root: ParentNode): void {
  root.querySelectorAll<HTMLTemplateElement>(ORIGINAL).forEach((template) => {
    if (template.previousElementSibling) template.previousElementSibling.innerHTML = template.innerHTML
    template.remove()
  })
  root.querySelectorAll(`.${NOTE_CLASS}`).forEach((note) => note.remove())
}
