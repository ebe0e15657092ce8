/**
 * Nextra's code block (its <Pre>, same markup and classes) with buttons that carry no React
 * handlers: code-buttons.ts answers their clicks by delegation, so they work in static content,
 * which is never hydrated, and in pages React renders alike.
 */
import {
  Children,
  isValidElement,
  type ComponentProps,
  type ComponentType,
  type CSSProperties,
  type ReactNode,
} from 'react'
import { siteConfig } from '../../site.config'
import { CodeIcon } from './code-icons'

const BORDER =
  '_border _border-gray-300 dark:_border-neutral-700 contrast-more:_border-gray-900 contrast-more:dark:_border-gray-50'
/** Nextra's button look (its focus ring; border, radius, padding in styles/content.css): a long guide repeats it on 200+ buttons. */
const BUTTON = 'nextra-focus ferry-code-button'

type Props = ComponentProps<'pre'> & {
  'data-filename'?: string
  'data-copy'?: ''
  'data-language'?: string
  'data-word-wrap'?: ''
  icon?: ComponentType<{ className?: string }>
}

function CopyButton({ className = '' }: { className?: string }) {
  return (
    <button type="button" title="Copy code" data-ferry-copy="" className={`${BUTTON} ${className}`}>
      <CodeIcon name="copy" className="nextra-copy-icon ferry-copy-ready" />
      <CodeIcon name="copied" className="nextra-copy-icon ferry-copy-done" />
    </button>
  )
}

/** Opens a prefilled issue naming the page, the section and this snippet (its URL is written on first use: page-tools/install.ts). */
function ReportLink({ language }: { language?: string }) {
  return (
    <a
      href={siteConfig.newIssue}
      target="_blank"
      rel="noopener"
      title="Report a problem with this snippet"
      aria-label="Report a problem with this snippet"
      data-ferry-feedback="snippet"
      data-language={language}
      className={BUTTON}
    >
      <CodeIcon name="report" />
    </a>
  )
}

/** Lines of highlighted code (one span each in the <code>), for the block's height before it is laid out. */
function lineCount(children: ReactNode): number {
  const code = Children.toArray(children).find((child) => isValidElement<{ children?: ReactNode }>(child))
  return isValidElement<{ children?: ReactNode }>(code)
    ? Children.toArray(code.props.children).filter((line) => isValidElement(line)).length
    : 0
}

/** Languages the guides use for what a command printed, not for what to type. */
const OUTPUT_LANGUAGES = new Set(['text', 'txt', 'console', 'output', 'log'])

export function CodeBlock({
  children,
  className = '',
  'data-filename': filename,
  'data-copy': copy,
  'data-language': language,
  'data-word-wrap': wordWrap,
  icon: Icon,
  ...props
}: Props) {
  const output = language !== undefined && OUTPUT_LANGUAGES.has(language)
  return (
    <div
      className="nextra-code _relative [&:not(:first-child)]:_mt-6"
      data-ferry-output={output ? '' : undefined}
      style={{ '--ferry-lines': lineCount(children) || 1 } as CSSProperties}
    >
      {filename && (
        <div
          className={`_px-4 _text-xs _text-gray-700 dark:_text-gray-200 _bg-gray-100 dark:_bg-neutral-900 _flex _items-center _h-12 _gap-2 _rounded-t-md ${BORDER} _border-b-0`}
        >
          {Icon && <Icon className="_h-4 _w-auto _max-w-6 _shrink-0" />}
          <span className="_truncate">{filename}</span>
          {copy === '' && <CopyButton className="_ml-auto" />}
        </div>
      )}
      <pre
        className={`nextra-focus _overflow-x-auto _subpixel-antialiased _text-[.9em] _bg-white dark:_bg-black _py-4 _ring-1 _ring-inset _ring-gray-300 dark:_ring-neutral-700 contrast-more:_ring-gray-900 contrast-more:dark:_ring-gray-50 contrast-more:_contrast-150 ${filename ? '_rounded-b-md' : '_rounded-md'} ${className}`}
        {...props}
      >
        {children}
      </pre>
      <div className="ferry-code-tools" data-below-filename={filename ? '' : undefined}>
        {wordWrap === '' && (
          <button type="button" title="Toggle word wrap" data-ferry-word-wrap="" className={BUTTON}>
            <CodeIcon name="word-wrap" />
          </button>
        )}
        {!filename && copy === '' && <CopyButton />}
        <ReportLink language={language} />
      </div>
    </div>
  )
}
