/** @module What every protocol renderer receives. */
import type { SemVer } from 'semver'
import type { Services } from '../http/context.ts'
import type { Answer } from './answer.ts'
import type { Offer, Target } from '../updates/offer.ts'

export interface RenderInput {
  s: Services
  /** Base of absolute URLs (configured public URL or the request's origin). */
  base: string
  target: Target
  /** The client's version; `undefined` only for Squirrel.Windows feeds fetched without `localVersion`. */
  current: SemVer | undefined
  offer: Offer | null
}

export type Renderer = (input: RenderInput) => Promise<Answer>
