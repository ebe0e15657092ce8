import { Modal } from './modal'
import { SHORTCUTS } from './shortcuts'

/** Every keyboard shortcut (`?`), from the same list the keys are handled by. */
export function HelpSheet({ onClose }: { onClose: () => void }) {
  return (
    <Modal label="Keyboard shortcuts" onClose={onClose} className="fc-sheet">
      <div className="fc-modal-head">
        <h2>Keyboard shortcuts</h2>
        <button type="button" className="fc-icon-btn" onClick={onClose} aria-label="Close">
          ✕
        </button>
      </div>
      <table className="fc-shortcuts">
        <caption className="ferry-sr-only">Keys and what they do</caption>
        <thead className="ferry-sr-only">
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">Does</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.what}>
              <td>
                {s.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 ? (
                      <span className="fc-then">
                        {s.together ? '+' : <span className="ferry-sr-only">{' then '}</span>}
                      </span>
                    ) : null}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </td>
              <td>{s.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="fc-modal-foot">Single keys work when no field has the focus.</p>
    </Modal>
  )
}
