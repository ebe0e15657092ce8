/** @module The blog's authors, defined once. They are the project's own team identities, not people. */

export interface Author {
  id: string
  name: string
  title: string
  /** Path under public/. */
  image: string
  /** Which part of the project this team writes, and so what its posts are about. */
  about: string
}

export const authors = [
  {
    id: 'ferry-team',
    name: 'Ferry maintainers',
    title: 'Core team',
    image: '/authors/ferry-team.svg',
    about:
      'The team that writes the server, the CLI and the API contract (server/, lib/, openapi/). Its posts explain how Ferry decides and why it is built that way.',
  },
  {
    id: 'ferry-docs',
    name: 'Ferry docs team',
    title: 'Documentation',
    image: '/authors/ferry-docs.svg',
    about:
      'The team that writes the guides, the API reference pages and this site (pages/, components/). Its posts show how to use Ferry, step by step.',
  },
] as const satisfies readonly Author[]

export type AuthorId = (typeof authors)[number]['id']

export const authorIds: readonly AuthorId[] = authors.map((a) => a.id)

export function findAuthor(id: string): Author | undefined {
  return authors.find((a) => a.id === id)
}
