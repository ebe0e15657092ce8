import { useEffect, useRef, useState, type ComponentProps } from 'react'

/**
 * Nextra's content table (same classes), made a tab stop while it is too wide for the column,
 * so keyboard users can scroll it sideways (axe: scrollable-region-focusable). Tables that fit
 * add no tab stop.
 */
export function ScrollableTable({ className, ...props }: ComponentProps<'table'>) {
  const ref = useRef<HTMLTableElement>(null)
  const [scrolls, setScrolls] = useState(false)
  useEffect(() => {
    const table = ref.current
    if (!table) return
    const measure = () => setScrolls(table.scrollWidth > table.clientWidth + 1)
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(table)
    return () => observer.disconnect()
  }, [])
  return (
    <table
      ref={ref}
      {...(scrolls ? { tabIndex: 0 } : {})}
      className={['_not-prose _block _overflow-x-auto nextra-scrollbar [&:not(:first-child)]:_mt-6 _p-0', className].filter(Boolean).join(' ')}
      {...props}
    />
  )
}
