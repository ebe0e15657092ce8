/** @module One card to PNG bytes: satori lays the card out as SVG (text as paths), resvg rasterises it. */
import { Resvg } from '@resvg/resvg-js'
import satori from 'satori'
import { socialCard, type CardText } from './card.ts'
import type { CardAssets } from './assets.ts'
import { SOCIAL_IMAGE_HEIGHT, SOCIAL_IMAGE_WIDTH } from './page-meta.ts'
import { withText } from './png.ts'

export async function renderCard(text: CardText, assets: CardAssets): Promise<Buffer> {
  const svg = await satori(socialCard(text, assets.mark, assets.host), {
    width: SOCIAL_IMAGE_WIDTH,
    height: SOCIAL_IMAGE_HEIGHT,
    fonts: assets.fonts,
  })
  const png = new Resvg(svg, { font: { loadSystemFonts: false } }).render().asPng()
  return withText(png, { Title: text.title })
}
