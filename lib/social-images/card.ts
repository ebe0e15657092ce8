/**
 * @module The social card's layout, light theme: product mark, section, title, the site's host.
 * Satori's element tree as plain objects (no JSX, so worker threads load it without a compile).
 * The cache key hashes this file's text (lib/social-images/cache-key.ts): editing the layout
 * renders every card again.
 */
import type { ReactElement } from 'react'

export type CardText = { title: string; section: string }

/** The family name the card's fonts are registered under (lib/social-images/fonts.ts). */
export const CARD_FONT = 'Inter'

type Style = Record<string, string | number>
/** What satori reads of a React element; plain objects, so no JSX runtime is needed. */
type Node = {
  type: string
  key: null
  props: { style?: Style; src?: string; width?: number; height?: number; children?: Child }
}
type Child = string | Node | Node[]

function el(type: string, style: Style, children?: Child, extra: Omit<Node['props'], 'style' | 'children'> = {}): Node {
  return { type, key: null, props: { style, children, ...extra } }
}

/** Long titles step down so three lines hold them; the last line ends in an ellipsis past that. */
function titleSize(title: string): number {
  if (title.length <= 40) return 72
  if (title.length <= 70) return 60
  return 50
}

const ink = '#0f172a'
const brand = '#085377'
const muted = '#475569'

export function socialCard(text: CardText, mark: string, host: string): ReactElement {
  const size = titleSize(text.title)
  const content = el(
    'div',
    {
      display: 'flex',
      flexDirection: 'column',
      justifyContent: 'space-between',
      flexGrow: 1,
      margin: '64px 80px 48px',
    },
    [
      el('div', { display: 'flex', alignItems: 'center' }, [
        el('img', { width: 72, height: 72, borderRadius: 14 }, undefined, { src: mark, width: 72, height: 72 }),
        el('div', { marginLeft: 24, fontSize: 44, fontWeight: 700, color: brand }, 'Ferry'),
      ]),
      el('div', { display: 'flex', flexDirection: 'column' }, [
        el('div', { fontSize: 30, fontWeight: 400, color: brand, marginBottom: 18 }, text.section),
        el(
          'div',
          { fontSize: size, fontWeight: 700, lineHeight: 1.15, letterSpacing: -1, lineClamp: 3, display: 'block' },
          text.title,
        ),
      ]),
      el('div', { fontSize: 28, fontWeight: 400, color: muted }, host),
    ],
  )
  // The card fills satori's canvas, whose size is the image's (lib/social-images/render.ts).
  return el(
    'div',
    {
      width: '100%',
      height: '100%',
      display: 'flex',
      flexDirection: 'column',
      backgroundColor: '#ffffff',
      backgroundImage: 'linear-gradient(180deg, #ffffff 60%, #e8f4fa 100%)',
      fontFamily: CARD_FONT,
      color: ink,
    },
    [content, el('div', { height: 14, backgroundColor: brand })],
  )
}
