/**
 * The code block's icons (copy, copied, word wrap, report a problem), drawn once per page in a
 * sprite (pages/_document.tsx) and shown with `<use>`: a long guide repeated their paths in each of
 * its 77 blocks (issue 29). Each symbol holds the icon as Nextra draws it, scaled to the 16 px box.
 */
import { CheckIcon, CopyIcon, WordWrapIcon } from 'nextra/icons'
import type { ReactNode } from 'react'

function ReportIcon() {
  return (
    <svg viewBox="0 0 16 16">
      <path
        d="M3.5 14.5v-12m0 0h8l-1.5 3 1.5 3h-8"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.4"
        strokeLinejoin="round"
      />
    </svg>
  )
}

const ICONS = {
  copy: <CopyIcon />,
  copied: <CheckIcon />,
  'word-wrap': <WordWrapIcon />,
  report: <ReportIcon />,
} satisfies Record<string, ReactNode>

export type CodeIconName = keyof typeof ICONS

const symbolId = (name: CodeIconName) => `ferry-code-icon-${name}`

/** Every icon as a symbol, in an SVG that takes no room and no reader sees. */
export function CodeIconSprite() {
  return (
    <svg aria-hidden="true" width="0" height="0" style={{ position: 'absolute' }}>
      {(Object.keys(ICONS) as CodeIconName[]).map((name) => (
        <symbol key={name} id={symbolId(name)}>
          {ICONS[name]}
        </symbol>
      ))}
    </svg>
  )
}

/** One icon, 16 px square, drawn from the sprite. */
export function CodeIcon({ name, className }: { name: CodeIconName; className?: string }) {
  return (
    <svg aria-hidden="true" width="16" height="16" className={className}>
      <use href={`#${symbolId(name)}`} />
    </svg>
  )
}
