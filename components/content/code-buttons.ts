/**
 * The code block's buttons (code-block.tsx), answered by one listener on the document: "Copy
 * code" copies the block's text and shows a check mark for two seconds; "Toggle word wrap" wraps
 * long lines in every block, as Nextra's does.
 */
const COPIED_FOR_MS = 2000

async function copy(button: HTMLElement) {
  const code = button.closest('.nextra-code')?.querySelector('pre code')
  button.dataset.copied = ''
  window.setTimeout(() => delete button.dataset.copied, COPIED_FOR_MS)
  try {
    await navigator.clipboard.writeText(code?.textContent ?? '')
  } catch {
    console.error('Failed to copy!')
  }
}

function toggleWordWrap() {
  const root = document.documentElement.dataset
  if ('nextraWordWrap' in root) delete root.nextraWordWrap
  else root.nextraWordWrap = ''
}

export function installCodeButtons(): void {
  document.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest?.<HTMLElement>(
      'button[data-ferry-copy], button[data-ferry-word-wrap]',
    )
    if (!button) return
    if (button.hasAttribute('data-ferry-copy')) void copy(button)
    else toggleWordWrap()
  })
}
