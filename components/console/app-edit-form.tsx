import { useId, useState, type FormEvent } from 'react'
import { AppFields } from '../demo/app-fields'
import type { App } from '../demo/sandbox-api'

import type { Run } from '../demo/use-ferry-data'

/** Renames an app, changes its description, or makes it private or public (PATCH /v1/apps/{app}). */
export function AppEditForm({ app, run }: { app: App; run: Run }) {
  const id = useId()
  const [name, setName] = useState(app.name)
  const [description, setDescription] = useState(app.description)
  const [isPrivate, setPrivate] = useState(app.private)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const patch = {
      ...(name !== app.name ? { name } : {}),
      ...(description !== app.description ? { description } : {}),
      ...(isPrivate !== app.private ? { private: isPrivate } : {}),
    }
    if (Object.keys(patch).length) void run(`Saved app ${app.slug}.`, (api) => api.updateApp(app.slug, patch))
  }
  return (
    <form className="ferry-form" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Edit {app.slug}</h2>
      <AppFields
        id={id}
        {...{ name, setName, description, setDescription, isPrivate, setPrivate }}
        nameInput={{ required: true, maxLength: 80 }}
        descriptionInput={{ maxLength: 500 }}
      />
      <button type="submit" className="ferry-btn ferry-btn-primary">
        Save app
      </button>
    </form>
  )
}
