import { Fragment } from 'react'

/** Renders the `backtick` spans of a spec description as <code>; everything else stays text. */
export function InlineCode({ text }: { text: string }) {
  return (
    <>
      {text
        .split(/`([^`]+)`/)
        .map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : <Fragment key={i}>{part}</Fragment>))}
    </>
  )
}
