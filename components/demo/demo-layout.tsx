import type { ReactNode } from 'react'
import styles from './demo.module.css'

/** The /demo page's frame; its stylesheet ships with this page only. */
export function DemoLayout({ children }: { children: ReactNode }) {
  return <div className={`ferry-demo ${styles.demo}`}>{children}</div>
}
