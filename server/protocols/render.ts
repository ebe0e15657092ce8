/** @module What every protocol renderer receives: the plan, and the offered files' URLs and contents. */
import type { SemVer } from 'semver'
import type { components } from '../../contract/generated/api.ts'
import type { Offer, ReleaseFile, Target } from '../updates/offer.ts'
import type { Answer } from './answer.ts'

/** What a renderer may ask about the target's files; built per check by the update route. */
export interface OfferedFiles {
  /** Absolute download URL of a file (a signed link when the app is private). */
  url(versionId: string, file: ReleaseFile): Promise<string>
  /** The contract's `Artifact` for a file, its download URL included. */
  artifact(file: ReleaseFile): Promise<components['schemas']['Artifact']>
  /** The signature in a stored Sparkle `.edsig` file, `undefined` when it holds none. */
  edSignature(file: ReleaseFile): Promise<string | undefined>
  /** A stored file's text, trimmed; `undefined` when the file is gone. */
  text(file: ReleaseFile): Promise<string | undefined>
}

export interface RenderInput {
  /** Base of absolute URLs (configured public URL or the request's origin). */
  base: string
  files: OfferedFiles
  target: Target
  /** The client's version; `undefined` only for Squirrel.Windows feeds fetched without `localVersion`. */
  current: SemVer | undefined
  offer: Offer | null
}

export type Renderer = (input: RenderInput) => Promise<Answer>
