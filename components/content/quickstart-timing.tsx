// As Next compiles it; tsx, which the tests render it under, reads tsconfig's `jsx: preserve` as React.createElement.
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Fragment } from 'react'
import { quickstartTiming, timingParts } from '../../lib/quickstart-timings'

/**
 * The figures at the top of a quickstart, read at build from lib/quickstart-timings.json, which
 * `npm run docs:timings` writes; `page` is the quickstart's file name (`quickstart-electron`).
 */
export function QuickstartTiming({ page }: { page: string }) {
  return (
    <>
      {timingParts(quickstartTiming(page)).map((part, i) => (
        <Fragment key={i}>
          {typeof part === 'string' ? (
            part
          ) : (
            <code className="nextra-code" dir="ltr">
              {part.code}
            </code>
          )}
        </Fragment>
      ))}
    </>
  )
}
