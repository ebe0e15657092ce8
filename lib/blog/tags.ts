/** @module The blog's tag vocabulary: every tag a post may use, with its label and a one-line description. */

export interface Tag {
  id: string
  label: string
  description: string
}

export const tags = [
  { id: 'analytics', label: 'Analytics', description: 'Reading what update checks say about your installed base.' },
  { id: 'api', label: 'API', description: 'The /v1 HTTP contract between apps, CI and the Ferry server.' },
  { id: 'auto-update', label: 'Auto-update', description: 'How installed apps find, download and apply new versions.' },
  { id: 'development', label: 'Development', description: 'Working on Ferry and on apps that talk to it.' },
  { id: 'electron', label: 'Electron', description: 'Electron’s autoUpdater, electron-updater and Squirrel.' },
  { id: 'ferry', label: 'Ferry', description: 'What Ferry is and why it is built the way it is.' },
  {
    id: 'performance',
    label: 'Performance',
    description: 'Keeping update checks cheap when every client asks at once.',
  },
  { id: 'security', label: 'Security', description: 'Private apps, signed links and who may publish what.' },
  { id: 'team', label: 'Team', description: 'Team users and per-resource permissions.' },
  { id: 'telemetry', label: 'Telemetry', description: 'Counting update checks per app, version and platform.' },
] as const satisfies readonly Tag[]

export type TagId = (typeof tags)[number]['id']

export const tagIds: readonly TagId[] = tags.map((t) => t.id)

export function findTag(id: string): Tag | undefined {
  return tags.find((t) => t.id === id)
}
