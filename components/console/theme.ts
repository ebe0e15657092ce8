import { useCallback, useEffect, useState } from 'react'

/** The console's colour scheme: the system's (the default), or one the user picked, kept in localStorage. */
export type ThemeChoice = 'system' | 'light' | 'dark'

const KEY = 'ferry.console.theme'
const dark = () => window.matchMedia('(prefers-color-scheme: dark)')

export function loadTheme(): ThemeChoice {
  try {
    const saved = localStorage.getItem(KEY)
    return saved === 'light' || saved === 'dark' ? saved : 'system'
  } catch {
    return 'system'
  }
}

/** Sets `html.dark` (what styles/colour-tokens.css keys on) for `choice`. */
export function applyTheme(choice: ThemeChoice): void {
  const isDark = choice === 'dark' || (choice === 'system' && dark().matches)
  document.documentElement.classList.toggle('dark', isDark)
}

/** The choice and its setter; while it is `system`, the page follows the system's changes. */
export function useTheme(): { choice: ThemeChoice; isDark: boolean; setChoice: (c: ThemeChoice) => void } {
  const [choice, set] = useState<ThemeChoice>(loadTheme)
  const [systemDark, setSystemDark] = useState(() => dark().matches)
  useEffect(() => {
    const media = dark()
    const follow = () => setSystemDark(media.matches)
    media.addEventListener('change', follow)
    return () => media.removeEventListener('change', follow)
  }, [])
  useEffect(() => applyTheme(choice), [choice, systemDark])
  const setChoice = useCallback((c: ThemeChoice) => {
    try {
      if (c === 'system') localStorage.removeItem(KEY)
      else localStorage.setItem(KEY, c)
    } catch {
      // Storage refused (private mode): the choice lasts for this page.
    }
    set(c)
  }, [])
  return { choice, isDark: choice === 'dark' || (choice === 'system' && systemDark), setChoice }
}
