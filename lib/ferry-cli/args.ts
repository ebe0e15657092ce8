/** @module Command-line parsing: each command's flags through node:util parseArgs, and the connection settings. */
import type { ParseArgsConfig } from 'node:util'
import { usageError } from './errors.ts'

type Options = NonNullable<ParseArgsConfig['options']>

/** Flags every command that talks to a server takes. */
export const CONNECTION_OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options

/**
 * Runs a command's parseArgs (strict, so an unknown flag is refused), its errors turned into usage
 * errors that name the flag. The caller calls parseArgs itself so its result keeps parseArgs' types.
 */
export function parseCommand<T>(command: string, parse: () => T): T {
  try {
    return parse()
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)
    throw usageError(
      `${command}: ${message.replace(/\. To specify a positional argument.*$/, '')} (see ferry ${command} --help)`,
    )
  }
}

export interface Connection {
  url: URL
  token: string
}

/** A server URL from the flag or variable `name`: http(s) only. */
export function connectionUrl(name: string, raw: string): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw usageError(`${name} is not a URL: ${JSON.stringify(raw)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usageError(`${name} must be http:// or https://`)
  return url
}

/** The server and token from `--url`/`--token`, else `FERRY_URL`/`FERRY_TOKEN`. */
export function connection(values: { url?: string; token?: string }, env: NodeJS.ProcessEnv): Connection {
  const rawUrl = values.url ?? env.FERRY_URL
  if (!rawUrl) throw usageError('no server: pass --url or set FERRY_URL (e.g. https://updates.example.com)')
  const url = connectionUrl(values.url ? '--url' : 'FERRY_URL', rawUrl)
  const token = values.token ?? env.FERRY_TOKEN
  if (!token) throw usageError('no token: set FERRY_TOKEN (an API token, ferry_…) or pass --token')
  return { url, token }
}

/** An integer percentage 0–100 from a flag or argument named `name`. */
export function percent(name: string, raw: string): number {
  if (!/^\d{1,3}$/.test(raw) || Number(raw) > 100)
    throw usageError(`${name} must be a whole number from 0 to 100, not ${JSON.stringify(raw)}`)
  return Number(raw)
}

/** A duration like `30m`, `12h` or `2d`, in whole minutes (at most a year). */
export function duration(name: string, raw: string): number {
  const m = /^(\d{1,6})([mhd])$/.exec(raw)
  const minutes = m ? Number(m[1]) * { m: 1, h: 60, d: 1440 }[m[2] as 'm' | 'h' | 'd'] : NaN
  if (!(minutes >= 1 && minutes <= 525_600))
    throw usageError(`${name} must be a duration like 30m, 12h or 2d (at most 365d), not ${JSON.stringify(raw)}`)
  return minutes
}

/** Exactly `count` positionals, named in the message when one is missing or extra. */
export function positionals(command: string, got: string[], names: string[]): string[] {
  if (got.length < names.length)
    throw usageError(
      `${command}: missing <${names[got.length]}> (usage: ferry ${command} ${names.map((n) => `<${n}>`).join(' ')}; see --help)`,
    )
  if (got.length > names.length)
    throw usageError(
      `${command}: unexpected argument ${JSON.stringify(got[names.length])} (see ferry ${command} --help)`,
    )
  return got
}
