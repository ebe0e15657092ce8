/**
 * Tabs as markup only, in Nextra's look (its Tabs' classes; states styled in styles/content.css):
 * every panel is in the page, the first one shown. tabs-behaviour.ts selects by delegation, so
 * the same HTML works in static content, which is never hydrated. With `storageKey`, the reader's
 * choice is remembered by label across pages; an inline script after the group shows the stored
 * choice before the group is first painted.
 *
 *   <Tabs items={['curl', 'Python']} storageKey="ferry-sample-language">
 *     <Tabs.Tab>…</Tabs.Tab>
 *     <Tabs.Tab>…</Tabs.Tab>
 *   </Tabs>
 */
import { Children, isValidElement, useId, type ReactElement, type ReactNode } from 'react'
import { showTab } from './tabs-behaviour'

const STORED_CHOICE_SCRIPT = `(${showTab.toString()})(document.currentScript.previousElementSibling)`

function Tab({ children }: { children?: ReactNode }) {
  return <>{children}</>
}

export function Tabs({ items, storageKey, children }: { items: string[]; storageKey?: string; children: ReactNode }) {
  const id = useId().replace(/:/g, '')
  const panels = Children.toArray(children).filter(isValidElement) as ReactElement<{ children?: ReactNode }>[]
  if (panels.length !== items.length)
    throw new Error(`<Tabs>: ${items.length} items but ${panels.length} <Tabs.Tab> panels`)
  return (
    <>
      <div className="ferry-tabs" data-ferry-tabs="" data-storage-key={storageKey}>
        <div
          role="tablist"
          aria-orientation="horizontal"
          className="nextra-scrollbar _overflow-x-auto _overscroll-x-contain _overflow-y-hidden _mt-4 _flex _w-full _gap-2 _border-b _border-gray-200 _pb-px dark:_border-neutral-800"
        >
          {items.map((item, index) => (
            <button
              key={item}
              type="button"
              role="tab"
              id={`${id}-tab-${index}`}
              aria-controls={`${id}-panel-${index}`}
              aria-selected={index === 0}
              tabIndex={index === 0 ? 0 : -1}
              data-value={item}
              className="ferry-tab nextra-focus _whitespace-nowrap _rounded-t _p-2 _font-medium _leading-5 _transition-colors _-mb-0.5 _select-none _border-b-2"
            >
              {item}
            </button>
          ))}
        </div>
        <div>
          {panels.map((panel, index) => (
            <div
              key={index}
              role="tabpanel"
              id={`${id}-panel-${index}`}
              aria-labelledby={`${id}-tab-${index}`}
              tabIndex={0}
              hidden={index !== 0}
              className="_rounded _mt-6"
            >
              {panel.props.children}
            </div>
          ))}
        </div>
      </div>
      {storageKey && <script dangerouslySetInnerHTML={{ __html: STORED_CHOICE_SCRIPT }} />}
    </>
  )
}

Tabs.Tab = Tab
