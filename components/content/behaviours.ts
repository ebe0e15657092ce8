/**
 * Everything content needs from the browser, by delegation from the document: installed once,
 * it serves static content (never hydrated) and React-rendered pages alike.
 */
import { installTryIt } from '../api/try-it/toggle'
import { installPageTools } from '../page-tools/install'
import { installCodeButtons } from './code-buttons'
import { installContentLinks } from './content-links'
import { installTabs } from './tabs-behaviour'

let installed = false

export function installContentBehaviours(): void {
  if (installed || typeof document === 'undefined') return
  installed = true
  installContentLinks()
  installCodeButtons()
  installTabs()
  installTryIt()
  installPageTools()
}
