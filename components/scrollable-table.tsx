import { useEffect, useRef, type ComponentProps } from 'react'

/**
 * Makes a table a tab stop while it is too wide for its column, so keyboard users can scroll it
 * sideways (axe: scrollable-region-focusable); a table that fits adds no tab stop. Returns the
 * function that stops watching. Used by <ScrollableTable> and by static content's tables.
 */
export function watchScrollable(table: HTMLElement): () => void {
  const measure = () => {
    if (table.scrollWidth > table.clientWidth + 1) table.tabIndex = 0
    else table.removeAttribute('tabindex')
  }
  measure()
  const observer = new ResizeObserver(measure)
  observer.observe(table)
  return () => observer.disconnect()
}

/** Nextra's content table (same classes), scrollable by keyboard when it overflows. */
export function ScrollableTable({ className, ...props }: ComponentProps<'table'>) {
  const ref = useRef<HTMLTableElement>(null)
  useEffect(() => (ref.current ? watchScrollable(ref.current) : undefined), [])
  return (
    <table
      ref={ref}
      className={['_not-prose _block _overflow-x-auto nextra-scrollbar [&:not(:first-child)]:_mt-6 _p-0', className]
        .filter(Boolean)
        .join(' ')}
      {...props}
    />
  )
}
