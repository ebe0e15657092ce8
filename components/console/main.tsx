import { createRoot } from 'react-dom/client'
import styles from '../demo/demo.module.css'
import '../../styles/colour-tokens.css'
import './console.css'
import './shell.css'
import { ConsoleApp } from './console-app'
import { applyTheme, loadTheme } from './theme'

const root = document.getElementById('console')
if (root) {
  applyTheme(loadTheme())
  root.className = styles.demo ?? ''
  createRoot(root).render(<ConsoleApp />)
}
