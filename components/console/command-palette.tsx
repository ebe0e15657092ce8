import { Modal } from './modal'
import { SearchList, type Choice } from './search-list'

/** Ctrl/⌘K: one search over the apps, the selected app's versions, the views and the actions. */
export function CommandPalette({ choices, onClose }: { choices: Choice[]; onClose: () => void }) {
  return (
    <Modal label="Command palette" onClose={onClose} className="fc-palette">
      <SearchList
        label="Search apps, versions and actions"
        placeholder="Search apps, versions, actions…"
        choices={choices.map((c) => ({
          ...c,
          run: () => {
            onClose()
            c.run()
          },
        }))}
        empty="Nothing matches. Try an app's name, a version number or a view."
      />
      <p className="fc-modal-foot" aria-hidden="true">
        <kbd>↑</kbd> <kbd>↓</kbd> to move · <kbd>Enter</kbd> to choose · <kbd>Esc</kbd> to close
      </p>
    </Modal>
  )
}
