/** @module The blog's authors, defined once. They are the project's own team identities, not people. */

export interface Author {
  id: string
  name: string
  title: string
  /** Path under public/. */
  image: string
}

export const authors = [
  { id: 'ferry-team', name: 'Ferry maintainers', title: 'Core team', image: '/authors/ferry-team.svg' },
  { id: 'ferry-docs', name: 'Ferry docs team', title: 'Documentation', image: '/authors/ferry-docs.svg' },
] as const satisfies readonly Author[]

export type AuthorId = (typeof authors)[number]['id']

export const authorIds: readonly AuthorId[] = authors.map((a) => a.id)

export function findAuthor(id: string): Author | undefined {
  return authors.find((a) => a.id === id)
}
