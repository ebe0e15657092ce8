/**
 * Stands in for Nextra's ImageZoom, the component it renders for every Markdown image
 * (next.config.mjs swaps the module). Nextra's imports next/image and react-medium-image-zoom,
 * so every page shipped both even with no image. This renders a plain <img> (a static import's
 * width and height kept, so nothing shifts) and loads the zoom when the browser is idle, only
 * on a page that shows an image. An image inside a link is not zoomed, as in Nextra.
 */
import { useEffect, useRef, useState } from 'react'
import type { ComponentType, ImgHTMLAttributes } from 'react'
import type { UncontrolledProps } from 'react-medium-image-zoom'

type StaticImage = { src: string; width?: number; height?: number }
type Props = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src'> & {
  src?: string | StaticImage | { default: StaticImage }
}

function staticImage(src: Props['src']): StaticImage | undefined {
  if (src === undefined || typeof src === 'string') return src === undefined ? undefined : { src }
  return 'default' in src ? src.default : src
}

export function ImageZoom({ src, ...props }: Props) {
  const image = staticImage(src)
  const ref = useRef<HTMLImageElement>(null)
  const [Zoom, setZoom] = useState<ComponentType<UncontrolledProps> | null>(null)
  useEffect(() => {
    if (ref.current?.closest('a')) return
    let cancelled = false
    const load = () =>
      void import('react-medium-image-zoom').then((module) => !cancelled && setZoom(() => module.default))
    const idle = window.requestIdleCallback ? window.requestIdleCallback(load) : window.setTimeout(load, 1)
    return () => {
      cancelled = true
      if (window.cancelIdleCallback) window.cancelIdleCallback(idle)
      else window.clearTimeout(idle)
    }
  }, [])
  const img = (
    <img
      ref={ref}
      loading="lazy"
      decoding="async"
      width={image?.width}
      height={image?.height}
      {...props}
      src={image?.src}
    />
  )
  if (!Zoom || !image) return img
  return (
    <Zoom zoomMargin={40} zoomImg={{ src: image.src, alt: props.alt }} wrapElement="span">
      {img}
    </Zoom>
  )
}
