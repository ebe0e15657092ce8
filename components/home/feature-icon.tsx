/**
 * The small line icons of the home page's feature cards (24 px grid, 2 px strokes in the text
 * colour). Decorative: each card's heading says what it is.
 */
const PATHS = {
  updaters: 'M4 6h16M4 12h16M4 18h16M8 4v4M16 10v4M12 16v4',
  ramp: 'M3 20h18M5 17l4-5 4 3 6-8M15 7h4v4',
  pull: 'M9 14 4 9l5-5M4 9h11a5 5 0 0 1 0 10h-3',
  explain: 'M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14zM21 21l-5-5M11 8v4M11 15h.01',
  signer: 'M12 3l7 3v6c0 4.5-3 7.5-7 9-4-1.5-7-4.5-7-9V6zM9 12l2 2 4-4',
  linux: 'M4 7l8-4 8 4v10l-8 4-8-4zM4 7l8 4 8-4M12 11v10',
  audit: 'M8 4h8l3 3v13H5V4zM8 10h8M8 14h8M8 18h5',
  webhooks: 'M10 14a4 4 0 1 1 1-7.9M14 10a4 4 0 1 1-1 7.9M7 18h10',
  mcp: 'M7 8h10v8H7zM12 4v4M9 12h.01M15 12h.01M4 11v2M20 11v2M10 20h4',
  cli: 'M4 5h16v14H4zM7 9l3 3-3 3M12 15h5',
  contract: 'M6 3h9l4 4v14H6zM14 3v5h5M9 13l2 2 4-4',
  scale: 'M4 5h7v5H4zM13 5h7v5h-7zM4 14h7v5H4zM13 14h7v5h-7z',
} as const

export type FeatureIconName = keyof typeof PATHS

export function FeatureIcon({ name }: { name: FeatureIconName }) {
  return (
    <svg className="ferry-feature-icon" width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d={PATHS[name]}
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  )
}
