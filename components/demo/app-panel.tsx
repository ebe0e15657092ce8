import { useId, useState, type FormEvent } from 'react'
import { AppFields } from './app-fields'
import type { App } from './sandbox-api'

import type { Run } from './use-ferry-data'

/** `canCreate`/`canDelete: false` leave out what the API would refuse this user. */
export function AppPanel({
  apps,
  selected,
  onSelect,
  run,
  canCreate = true,
  canDelete = true,
}: {
  apps: App[]
  selected?: string
  onSelect: (slug: string) => void
  run: Run
  canCreate?: boolean
  canDelete?: boolean
}) {
  return (
    <div className="ferry-dash-apps">
      <h3>Apps</h3>
      <ul className="ferry-app-list">
        {apps.map((a) => (
          <li key={a.slug}>
            <button
              type="button"
              className="ferry-app"
              aria-pressed={a.slug === selected}
              onClick={() => onSelect(a.slug)}
            >
              <span className="ferry-app-name">{a.name}</span> <code>{a.slug}</code>
              {a.private ? <span className="ferry-tag">private</span> : null}
            </button>
          </li>
        ))}
      </ul>
      {selected && canDelete ? (
        <button
          type="button"
          className="ferry-btn ferry-btn-danger"
          onClick={() => run(`Deleted app ${selected}.`, (api) => api.deleteApp(selected))}
        >
          Delete app {selected}
        </button>
      ) : null}
      {canCreate ? <CreateAppForm run={run} onCreated={onSelect} /> : null}
    </div>
  )
}

/** Creates an app (POST /v1/apps); `Heading` is its title's level where it stands (the console's settings: h2). */
export function CreateAppForm({
  run,
  onCreated,
  Heading = 'h4',
}: {
  run: Run
  onCreated: (slug: string) => void
  Heading?: 'h2' | 'h4'
}) {
  const id = useId()
  const [slug, setSlug] = useState('')
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [isPrivate, setPrivate] = useState(false)
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const ok = await run(`Created app ${slug}.`, (api) =>
      api.createApp({ slug, name, description, private: isPrivate }),
    )
    if (ok) {
      onCreated(slug)
      setSlug('')
      setName('')
      setDescription('')
      setPrivate(false)
    }
  }
  return (
    <form className="ferry-form ferry-create-app" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <Heading id={`${id}-title`}>Create an app</Heading>
      <label htmlFor={`${id}-slug`}>Slug</label>
      <input
        id={`${id}-slug`}
        value={slug}
        onChange={(e) => setSlug(e.target.value)}
        placeholder="my-app"
        autoComplete="off"
      />
      <AppFields
        id={id}
        {...{ name, setName, description, setDescription, isPrivate, setPrivate }}
        nameInput={{ placeholder: 'My App' }}
      />
      <button type="submit" className="ferry-btn ferry-btn-primary">
        Create app
      </button>
    </form>
  )
}
