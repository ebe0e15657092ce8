import { useEffect, useRef, type ReactNode } from 'react'

/**
 * A modal on the native `<dialog>`: the browser keeps the focus inside, closes it on Esc and
 * gives the focus back where it was. A click on the backdrop closes it too.
 */
export function Modal({
  label,
  onClose,
  className,
  children,
}: {
  label: string
  onClose: () => void
  className?: string
  children: ReactNode
}) {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const dialog = ref.current
    if (dialog && !dialog.open) dialog.showModal()
    return () => dialog?.close()
  }, [])
  return (
    <dialog
      ref={ref}
      aria-label={label}
      className={`fc-modal ${className ?? ''}`}
      onCancel={(e) => {
        e.preventDefault()
        onClose()
      }}
      onClick={(e) => {
        if (e.target === ref.current) onClose()
      }}
    >
      {children}
    </dialog>
  )
}
