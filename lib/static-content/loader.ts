/**
 * @module Webpack loader run on each page's module after Nextra's loader, in production builds
 * (next.config.mjs): a page that can be static content (transform.ts) gets its server or browser
 * module; any other page passes through unchanged. Loaded by Node's own TypeScript support.
 */
import { join } from 'node:path'
import { clientModule, eligibility, parseModule, serverModule } from './transform.ts'

interface Options {
  /** Which compilation this is: the server renders the HTML, the browser adopts it. */
  side: 'server' | 'client'
  /** The repository root, for the allowlist's paths. */
  root: string
}

interface LoaderThis {
  resourcePath: string
  getOptions(): Options
}

export default function staticContentLoader(this: LoaderThis, code: string): string {
  const { side, root } = this.getOptions()
  const program = parseModule(code)
  if (!eligibility(program, this.resourcePath, root).static) return code
  const component = join(root, 'components', 'content', 'static-content.tsx')
  return side === 'server' ? serverModule(code, program, component) : clientModule(code, program, component)
}
