import { useTheme } from 'nextra-theme-docs'
import { useEffect, useState } from 'react'

/**
 * Light/dark switch with no "system" option: the spec says the OS preference is never
 * followed, so the choice is binary and next-themes stores it under localStorage 'theme'.
 */
export function ThemeToggle() {
  const { resolvedTheme, setTheme } = useTheme()
  const [mounted, setMounted] = useState(false)
  useEffect(() => setMounted(true), [])
  const dark = mounted && resolvedTheme === 'dark'
  const next = dark ? 'light' : 'dark'
  return (
    <button
      type="button"
      className="ferry-theme-toggle"
      title={`Switch to ${next} mode`}
      aria-pressed={dark}
      data-theme-toggle
      // From the theme itself, not the label: a click right after hydration, before the effect above, still switches.
      onClick={() => setTheme(resolvedTheme === 'dark' ? 'light' : 'dark')}
    >
      <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        {dark ? (
          <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" fill="currentColor" />
        ) : (
          <g fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <circle cx="12" cy="12" r="4" />
            <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
          </g>
        )}
      </svg>
      {/* The visible label starts the accessible name (WCAG 2.5.3); the action follows for screen readers. */}
      <span>{dark ? 'Dark' : 'Light'}</span>
      <span className="sr-only">: switch to {next} mode</span>
    </button>
  )
}
