import { useId, useState, type FormEvent } from 'react'
import { AppFields } from '../demo/app-fields'
import type { App, FerryApi } from '../demo/sandbox-api'

type Run = (done: string, action: (api: FerryApi) => Promise<unknown>) => Promise<boolean>

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
      <h4 id={`${id}-title`}>Edit {app.slug}</h4>
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
