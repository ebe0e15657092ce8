import { createRoot } from 'react-dom/client'
import styles from '../demo/demo.module.css'
import '../../styles/colour-tokens.css'
import './console.css'
import { ConsoleApp } from './console-app'

const root = document.getElementById('console')
if (root) {
  if (window.matchMedia('(prefers-color-scheme: dark)').matches) document.documentElement.classList.add('dark')
  root.className = styles.demo ?? ''
  createRoot(root).render(<ConsoleApp />)
}
