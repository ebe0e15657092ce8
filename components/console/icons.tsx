/** The shell's line icons (24×24, stroked in the text colour); decorative, so hidden from assistive technology. */
const PATHS = {
  releases: 'M4 7l8-4 8 4-8 4-8-4zM4 12l8 4 8-4M4 17l8 4 8-4',
  drafts: 'M5 3h9l5 5v13H5zM14 3v5h5M9 13h6M9 17h4',
  rollouts: 'M3 20h18M5 16l4-5 4 3 6-8M15 6h4v4',
  adoption: 'M4 20V10M10 20V4M16 20v-7M22 20H2',
  explain: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6v.6M12 17h.01',
  webhooks: 'M10 14a4 4 0 1 1 3-6.6M14 10a4 4 0 1 1-3 6.6M7 17h7M17 7H10',
  tokens: 'M15 7a4 4 0 1 1-3.9 5H3v3h3v3h3v-3h2.1A4 4 0 0 1 15 7z',
  team: 'M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM2 21a7 7 0 0 1 14 0M17 11a3 3 0 1 0 0-6M22 21a6 6 0 0 0-4-5.6',
  audit: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 7v5l3 2',
  settings: 'M4 6h8M16 6h4M12 4v4M4 12h2M10 12h10M6 10v4M4 18h10M18 18h2M14 16v4',
  rules: 'M8 5v14M16 5v14M5 8h6M13 16h6',
  search: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM21 21l-5-5',
  sun: 'M12 17a5 5 0 1 0 0-10 5 5 0 0 0 0 10zM12 1v2M12 21v2M4.2 4.2l1.4 1.4M18.4 18.4l1.4 1.4M1 12h2M21 12h2M4.2 19.8l1.4-1.4M18.4 5.6l1.4-1.4',
  moon: 'M21 12.8A9 9 0 1 1 11.2 3 7 7 0 0 0 21 12.8z',
  menu: 'M3 6h18M3 12h18M3 18h18',
  close: 'M6 6l12 12M18 6L6 18',
  chevrons: 'M8 9l4-4 4 4M8 15l4 4 4-4',
  plus: 'M12 5v14M5 12h14',
  keyboard: 'M3 6h18v12H3zM7 10h.01M11 10h.01M15 10h.01M7 14h10',
  signout: 'M15 4h4v16h-4M10 17l5-5-5-5M15 12H3',
} as const

export type IconName = keyof typeof PATHS

export function Icon({ name, size = 18 }: { name: IconName; size?: number }) {
  return (
    <svg
      className="fc-icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  )
}
