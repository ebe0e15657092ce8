import { siteConfig } from '../../site.config'

/**
 * The contents of an operation page, at the top of its examples column, and the link to edit
 * the contract it comes from. On wide screens that column takes the place of the theme's table
 * of contents (styles/api.css), so both stay one click away. The ids are the ones Nextra gives
 * the headings (lib/codegen).
 */
export function OnThisPage({ items }: { items: { id: string; title: string; depth: number }[] }) {
  return (
    <>
      <details className="ferry-op-contents">
        <summary>On this page</summary>
        <ul>
          {items.map((item) => (
            <li key={item.id} className={item.depth === 3 ? 'ferry-op-contents-sub' : undefined}>
              <a href={`#${item.id}`}>{item.title}</a>
            </li>
          ))}
        </ul>
      </details>
      <p className="ferry-op-edit">
        <a href={siteConfig.apiSourceUrl}>Edit in {siteConfig.apiSource}</a>
      </p>
    </>
  )
}
