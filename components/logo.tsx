export function Logo() {
  return (
    <span className="ferry-logo">
      <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path d="M3 15h18l-2.5 4.5a2 2 0 0 1-1.75 1H7.25a2 2 0 0 1-1.75-1z" fill="currentColor" />
        <path d="M7 13V7h6l3 3v3z" fill="currentColor" opacity=".6" />
        <path d="M11 3v4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <strong>Ferry</strong>
    </span>
  )
}
