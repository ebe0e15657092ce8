import { useId, useState, type FormEvent } from 'react'
import type { Catalogs, FerryApi } from '../demo/sandbox-api'

import type { Run } from '../demo/use-ferry-data'

const KINDS = { channel: 'Channel', platform: 'Platform', arch: 'Architecture' } as const
type Kind = keyof typeof KINDS

/** The team's catalogue (channels, platforms, architectures) and a form adding to it. */
export function CatalogPanel({ catalogs, run }: { catalogs: Catalogs; run: Run }) {
  const id = useId()
  const [kind, setKind] = useState<Kind>('channel')
  const [name, setName] = useState('')
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const create = (api: FerryApi) =>
      kind === 'channel'
        ? api.createChannel(name)
        : kind === 'platform'
          ? api.createPlatform(name)
          : api.createArch(name)
    if (await run(`Added ${KINDS[kind].toLowerCase()} ${name}.`, create)) setName('')
  }
  const list = (label: string, names: string[]) => (
    <p>
      <strong>{label}:</strong> {names.length ? names.map((n) => <code key={n}>{n} </code>) : 'none yet'}
    </p>
  )
  return (
    <section className="ferry-form" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Catalogue</h2>
      {list('Channels', catalogs.channels)}
      {list('Platforms', catalogs.platforms)}
      {list('Architectures', catalogs.archs)}
      <form onSubmit={submit} aria-label="Add to the catalogue">
        <label htmlFor={`${id}-kind`}>Kind</label>
        <select
          id={`${id}-kind`}
          value={kind}
          onChange={(e) =>
            setKind(e.target.value === 'platform' ? 'platform' : e.target.value === 'arch' ? 'arch' : 'channel')
          }
        >
          {Object.entries(KINDS).map(([k, label]) => (
            <option key={k} value={k}>
              {label}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-name`}>Name</label>
        <input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" required />
        <button type="submit" className="ferry-btn ferry-btn-primary">
          Add
        </button>
      </form>
    </section>
  )
}
