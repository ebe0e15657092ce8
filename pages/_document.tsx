import { Html, Head, Main, NextScript } from 'next/document'
import { CodeIconSprite } from '../components/content/code-icons'
import { loadFailureScript } from '../components/load-failure-script'
import { PaintFirstScripts, scriptSources } from '../components/paint-first-scripts'

type DocumentFiles = Parameters<Head['getScripts']>[0]

/** Next's Head, its page scripts run after the first paint (components/paint-first-scripts). */
class PaintFirstHead extends Head {
  getDynamicChunks() {
    return []
  }

  getScripts(files: DocumentFiles) {
    const srcs = scriptSources([...super.getDynamicChunks(files), ...super.getScripts(files)])
    return [<PaintFirstScripts key="paint-first" srcs={srcs} />]
  }
}

export default function Document() {
  return (
    <Html lang="en">
      <PaintFirstHead>
        <script dangerouslySetInnerHTML={{ __html: loadFailureScript }} />
      </PaintFirstHead>
      <body>
        <CodeIconSprite />
        <Main />
        <NextScript />
      </body>
    </Html>
  )
}
