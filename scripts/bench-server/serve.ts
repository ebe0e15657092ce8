/**
 * The server under test of `npm run bench:server`, run as its own process: the real Node server
 * (`startServer`) configured from the environment like `npm run server`, on a free port of
 * 127.0.0.1, plus `GET /hello` behind the same middleware. Prints `{"url": …}` once listening;
 * stops on SIGTERM.
 */
import { pino } from 'pino'
import { loadConfig } from '../../server/runtime/config.ts'
import { startServer } from '../../server/runtime/node.ts'

const config = { ...loadConfig(process.env), host: '127.0.0.1', port: 0 }
const running = await startServer({
  config,
  logger: pino({ level: config.logLevel }),
  routes: (app) => {
    app.get('/hello', (c) => c.text('Hello, world'))
  },
})
process.stdout.write(`${JSON.stringify({ url: running.url })}\n`)
process.once('SIGTERM', () => {
  void running.close().then(() => process.exit(0))
})
