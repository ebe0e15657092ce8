import { useEffect, useState } from 'react'

/** Copies `text` to the clipboard and says so for two seconds (or that the browser refused). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  useEffect(() => {
    if (state === 'idle') return
    const t = setTimeout(() => setState('idle'), 2000)
    return () => clearTimeout(t)
  }, [state])
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    )
  return (
    <span className="ferry-copy">
      <button type="button" className="ferry-btn" onClick={copy}>
        Copy<span className="ferry-sr-only"> {label}</span>
      </button>{' '}
      <span aria-live="polite" className="ferry-copy-status">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'The browser refused; select the text and copy it.' : ''}
      </span>
    </span>
  )
}
