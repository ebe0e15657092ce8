/** @module The CLI's failures and the exit code each one means to a CI job. */

export const EXIT = { ok: 0, refused: 1, usage: 2, unreachable: 3 } as const
export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

/** Anything the CLI stops on on purpose: a message for stderr and the exit code. */
export class CliError extends Error {
  constructor(
    readonly exitCode: ExitCode,
    message: string,
  ) {
    super(message)
  }
}

/** A flag, argument or environment variable is wrong or missing: exit 2. */
export const usageError = (message: string) => new CliError(EXIT.usage, message)
/** The server answered with a problem, or what it holds forbids going on: exit 1. */
export const refused = (message: string) => new CliError(EXIT.refused, message)
/** No HTTP answer at all: exit 3, so a CI job can retry. */
export const unreachable = (message: string) => new CliError(EXIT.unreachable, message)
