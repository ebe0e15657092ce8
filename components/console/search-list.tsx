import { useId, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react'

/** One choice in a search list: what it says, words it is also found by, and what choosing it does. */
export interface Choice {
  id: string
  group: string
  label: string
  hint?: ReactNode
  keywords?: string
  run: () => void
}

/** Whether every word typed starts a word of the choice's label or keywords ("rol tid" finds "Rollouts · Tidewater"). */
export function matches(choice: Choice, query: string): boolean {
  const words = `${choice.label} ${choice.keywords ?? ''} ${choice.group}`.toLowerCase()
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((q) => words.includes(q))
}

/**
 * A search field over a list of choices (the ARIA combobox pattern with a listbox): typing
 * filters, ↑/↓ move, Enter chooses. The command palette and the app switcher both use it.
 */
export function SearchList({
  label,
  placeholder,
  choices,
  empty,
  autoFocus = true,
}: {
  label: string
  placeholder: string
  choices: Choice[]
  empty: ReactNode
  autoFocus?: boolean
}) {
  const id = useId()
  const [query, setQuery] = useState('')
  const [active, setActive] = useState(0)
  // Group by group, in the order groups first appear, so ↓ moves down the list as drawn.
  const shown = useMemo(() => {
    const found = choices.filter((c) => matches(c, query))
    return [...new Set(found.map((c) => c.group))].flatMap((g) => found.filter((c) => c.group === g))
  }, [choices, query])
  const at = Math.max(0, Math.min(active, shown.length - 1))
  const groups = [...new Set(shown.map((c) => c.group))]
  const optionId = (i: number) => `${id}-o${i}`
  const move = (to: number) => {
    if (!shown.length) return
    const next = (to + shown.length) % shown.length
    setActive(next)
    document.getElementById(optionId(next))?.scrollIntoView({ block: 'nearest' })
  }
  const keydown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') move(at + 1)
    else if (e.key === 'ArrowUp') move(at - 1)
    else if (e.key === 'Home' && e.ctrlKey) move(0)
    else if (e.key === 'End' && e.ctrlKey) move(shown.length - 1)
    else if (e.key === 'Enter') shown[at]?.run()
    else return
    e.preventDefault()
  }
  return (
    <div className="fc-search">
      <input
        className="fc-search-input"
        role="combobox"
        aria-label={label}
        aria-expanded="true"
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={shown.length ? optionId(at) : undefined}
        placeholder={placeholder}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value)
          setActive(0)
        }}
        onKeyDown={keydown}
        autoFocus={autoFocus}
        autoComplete="off"
        spellCheck={false}
      />
      <div id={`${id}-list`} role="listbox" aria-label={label} className="fc-search-list">
        {groups.map((g) => (
          <div role="group" aria-label={g} key={g}>
            <div className="fc-search-group" aria-hidden="true">
              {g}
            </div>
            {shown.map((c, i) =>
              c.group === g ? (
                <div
                  key={c.id}
                  id={optionId(i)}
                  role="option"
                  aria-selected={i === at}
                  className="fc-search-option"
                  onMouseMove={() => i !== at && setActive(i)}
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => c.run()}
                >
                  <span className="fc-search-label">{c.label}</span>
                  {c.hint ? <span className="fc-search-hint">{c.hint}</span> : null}
                </div>
              ) : null,
            )}
          </div>
        ))}
      </div>
      {shown.length ? null : (
        <p className="fc-search-empty" role="status">
          {empty}
        </p>
      )}
    </div>
  )
}
