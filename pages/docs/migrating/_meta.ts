export default {
  'github-releases': 'GitHub Releases (Hazel, Nuts, update.electronjs.org)',
  'electron-release-server': 'electron-release-server',
  nucleus: 'Nucleus',
  'static-folder': 'Static latest.yml folder',
}
