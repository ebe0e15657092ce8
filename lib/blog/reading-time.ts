/** @module Reading time of a post body: a pure function over the `reading-time` package. */
import readingTimeOf from 'reading-time'

export interface ReadingTime {
  /** Whole minutes, rounded up, at least 1. */
  minutes: number
  words: number
}

/** MDX lines that are code for the compiler, not prose for the reader. */
const NON_PROSE_LINE = /^\s*(import\s.+\sfrom\s.+|export\s.+|<[A-Z][\w.]*(\s[^>]*)?\/>)\s*$/

/**
 * Reading time of an MDX body (front matter already removed). Import/export statements and
 * self-closing component lines such as `<PostHeader />` are not counted, nor are heading markers.
 */
export function readingTime(body: string): ReadingTime {
  const prose = body
    .split('\n')
    .filter((line) => !NON_PROSE_LINE.test(line))
    .map((line) => line.replace(/^#{1,6}\s+/, ''))
    .join('\n')
  const result = readingTimeOf(prose)
  return { minutes: Math.max(1, Math.ceil(result.minutes)), words: result.words }
}

const FENCED_BLOCK = /^(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n\1[ \t]*$/gm

/** Words of prose in an MDX body: as `readingTime` counts them, without fenced code blocks and their output. */
export function proseWords(body: string): number {
  return readingTime(body.replace(FENCED_BLOCK, '')).words
}
