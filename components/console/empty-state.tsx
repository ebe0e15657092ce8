import type { ReactNode } from 'react'

/** What a view shows with nothing in it: what is missing, and the next step. */
export function EmptyState({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <div className="fc-empty">
      <p className="fc-empty-title">{title}</p>
      <p className="fc-empty-text">{children}</p>
      {action ? <div className="fc-empty-action">{action}</div> : null}
    </div>
  )
}
