import type { InputHTMLAttributes } from 'react'

type Extra = Pick<InputHTMLAttributes<HTMLInputElement>, 'placeholder' | 'required' | 'maxLength'>

/**
 * An app's name, description and private fields, as the demo's create form and the console's edit
 * form show them; `id` prefixes the inputs' ids, `nameInput`/`descriptionInput` add to the inputs.
 */
export function AppFields({
  id,
  name,
  setName,
  description,
  setDescription,
  isPrivate,
  setPrivate,
  nameInput = {},
  descriptionInput = {},
}: {
  id: string
  name: string
  setName: (name: string) => void
  description: string
  setDescription: (description: string) => void
  isPrivate: boolean
  setPrivate: (isPrivate: boolean) => void
  nameInput?: Extra
  descriptionInput?: Extra
}) {
  return (
    <>
      <label htmlFor={`${id}-name`}>Name</label>
      <input
        id={`${id}-name`}
        value={name}
        onChange={(e) => setName(e.target.value)}
        autoComplete="off"
        {...nameInput}
      />
      <label htmlFor={`${id}-desc`}>Description</label>
      <input
        id={`${id}-desc`}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        autoComplete="off"
        {...descriptionInput}
      />
      <label className="ferry-check">
        <input type="checkbox" checked={isPrivate} onChange={(e) => setPrivate(e.target.checked)} /> Private (downloads
        need a token or a signed link)
      </label>
    </>
  )
}
