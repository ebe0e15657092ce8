export function VersionSwitch() {
  return null
}
export function useVersionedDocsLinks() {}
