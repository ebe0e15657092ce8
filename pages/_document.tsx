import { Html, Head, Main, NextScript } from 'next/document'
import { CodeIconSprite } from '../components/content/code-icons'
import { loadFailureScript } from '../components/load-failure-script'

export default function Document() {
  return (
    <Html lang="en">
      <Head>
        <script dangerouslySetInnerHTML={{ __html: loadFailureScript }} />
      </Head>
      <body>
        <CodeIconSprite />
        <Main />
        <NextScript />
      </body>
    </Html>
  )
}
