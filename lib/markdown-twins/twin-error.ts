/** @module The error a page that cannot become clean Markdown fails the build with: it names file, line and column. */

export class MarkdownTwinError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly problem: string,
    options?: ErrorOptions,
  ) {
    super(`${file}:${line}:${column}: ${problem}`, options)
    this.name = 'MarkdownTwinError'
  }
}

export interface SourcePosition {
  start?: { line: number; column: number }
}

export function twinError(
  file: string,
  position: SourcePosition | undefined,
  problem: string,
  cause?: unknown,
): MarkdownTwinError {
  return new MarkdownTwinError(
    file,
    position?.start?.line ?? 1,
    position?.start?.column ?? 1,
    problem,
    cause === undefined ? undefined : { cause },
  )
}
