/** Loaded on first use (install.ts): writes a feedback link's prefilled-issue URL. */
import { pageFeedbackUrl, snippetProblemUrl } from '../../lib/feedback/issue-links'
import { pageContext } from './page-context'

export function fillFeedbackLink(link: HTMLAnchorElement): void {
  const kind = link.dataset.ferryFeedback
  if (kind === 'snippet') {
    const block = link.closest('.nextra-code')
    const code = block?.querySelector('pre code')
    const language = link.dataset.language ?? ''
    link.href = snippetProblemUrl(pageContext(block ?? link), code?.textContent ?? '', language)
  } else {
    link.href = pageFeedbackUrl(pageContext(), kind === 'yes')
  }
  link.dataset.filled = ''
}
