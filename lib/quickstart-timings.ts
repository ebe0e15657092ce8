/**
 * @module How long each quickstart's commands took, as `npm run docs:timings`
 * (scripts/docs-timings.ts) measured them into quickstart-timings.json, and the sentence the top
 * of each quickstart shows (`<QuickstartTiming page="…" />` on the site, the same text in its Markdown twin).
 */
import measured from './quickstart-timings.json' with { type: 'json' }

export interface QuickstartTiming {
  /** Day of the run, YYYY-MM-DD (UTC). */
  measured: string
  /** The machine it ran on: operating system and core count (`Linux, 2 cores`). */
  machine: string
  node: string
  /** Time from starting the server to its first answer to `GET /v1/health`, for each `runnable=server` block together. */
  serverStartSeconds: number
  /** The page's other runnable blocks together. */
  commandsSeconds: number
  /** Every runnable block in page order: the line of its opening fence, how long it took, and whether it started the server. */
  blocks: Array<{ line: number; seconds: number; server: boolean }>
}

export const quickstartTimings: Readonly<Record<string, QuickstartTiming>> = measured

/** A page's timing by its file name without extension (`quickstart-electron`); throws when the file has none. */
export function quickstartTiming(page: string): QuickstartTiming {
  const timing = quickstartTimings[page]
  if (!timing) throw new Error(`lib/quickstart-timings.json has no timing for ${page}: run npm run docs:timings`)
  return timing
}

export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)} s`
  const whole = Math.round(seconds)
  return `${Math.floor(whole / 60)} min ${whole % 60} s`
}

/** Text, and `{ code }` for what shows as inline code. */
export type TimingPart = string | { code: string }

/** The sentence a quickstart shows at its top, from the measured figures only. */
export function timingParts(timing: QuickstartTiming): TimingPart[] {
  const commands = timing.blocks.filter((b) => !b.server).length
  return [
    `the server started in ${formatSeconds(timing.serverStartSeconds)} and the ${commands} blocks of commands below ran in ${formatSeconds(timing.commandsSeconds)}, from a checkout with `,
    { code: 'npm ci' },
    ` done (measured on ${timing.measured} on ${timing.machine}, Node ${timing.node.replace(/^v/, '')}, by `,
    { code: 'npm run docs:timings' },
    ').',
  ]
}

/** `timingParts` as plain text, inline code in backticks. */
export function timingText(timing: QuickstartTiming): string {
  return timingParts(timing)
    .map((part) => (typeof part === 'string' ? part : `\`${part.code}\``))
    .join('')
}
