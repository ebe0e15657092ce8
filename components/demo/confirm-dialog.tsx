import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react'
import styles from './releases.module.css'

/**
 * A destructive action's confirmation, as strong as the damage: the action stays disabled until
 * `typed` is typed exactly (the version), and `reason` asks why (shown with the version).
 */
export function ConfirmDialog({
  title,
  damage,
  typed,
  action,
  reason,
  onConfirm,
  onClose,
}: {
  title: string
  damage: ReactNode
  typed: string
  action: string
  /** Ask for a reason, sent with the action, starting from this text. */
  reason?: string
  onConfirm: (reason: string | undefined) => Promise<boolean>
  onClose: () => void
}) {
  const id = useId()
  const dialog = useRef<HTMLDialogElement>(null)
  const [text, setText] = useState('')
  const [why, setWhy] = useState(reason ?? '')
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    const d = dialog.current
    if (d && !d.open) d.showModal()
  }, [])
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (text !== typed) return
    setBusy(true)
    const ok = await onConfirm(why.trim() || undefined)
    setBusy(false)
    if (ok) onClose()
  }
  return (
    <dialog ref={dialog} className={styles.dialog} aria-labelledby={`${id}-title`} onClose={onClose}>
      <form onSubmit={submit} className={styles.dialogForm}>
        <h2 id={`${id}-title`}>{title}</h2>
        <div className={styles.damage}>{damage}</div>
        {reason !== undefined ? (
          <>
            <label htmlFor={`${id}-reason`}>Reason (shown with the version)</label>
            <input id={`${id}-reason`} value={why} onChange={(e) => setWhy(e.target.value)} autoComplete="off" />
          </>
        ) : null}
        <label htmlFor={`${id}-typed`}>
          Type <strong>{typed}</strong> to confirm
        </label>
        <input
          id={`${id}-typed`}
          value={text}
          onChange={(e) => setText(e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
        <div className={styles.dialogActions}>
          <button type="button" className="ferry-btn" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="submit" className={`ferry-btn ${styles.dangerSolid}`} disabled={text !== typed || busy}>
            {action}
          </button>
        </div>
      </form>
    </dialog>
  )
}
