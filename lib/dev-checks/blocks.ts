/**
 * @module Code blocks of the page being edited, checked as tests/docs/blocks.test.ts and
 * runnable.test.ts check them: fences that close, output blocks after a runnable one, each
 * block parsed as its language (`checkSyntax`) and `runnable=server` blocks in the form the runner starts.
 */
import { BlockError, extractBlocks } from '../docs-runner/extract.ts'
import { parseStartCommand } from '../docs-runner/server.ts'
import { checkSyntax } from '../docs-runner/syntax.ts'
import type { PageProblem } from './problem.ts'

export function blockProblems(file: string, source: string): PageProblem[] {
  let blocks
  try {
    blocks = extractBlocks(file, source)
  } catch (error) {
    if (!(error instanceof BlockError)) throw error
    return [{ line: error.line, column: 1, message: error.message.slice(`${file}:${error.line}: `.length) }]
  }
  return blocks
    .filter((b) => !b.output)
    .flatMap((block) => {
      let problem = checkSyntax(block)
      if (!problem && block.startsServer) {
        try {
          parseStartCommand(block.code)
        } catch (error) {
          problem = (error as Error).message
        }
      }
      if (!problem) return []
      // Checkers say "line N" of the block; the page's line is N below the opening fence.
      const inner = /\bline (\d+)\b/.exec(problem)?.[1]
      return [
        {
          line: block.line + (inner ? Number(inner) : 0),
          column: 1,
          message: `${block.lang || 'untyped'} block at line ${block.line}: ${problem}`,
        },
      ]
    })
}
