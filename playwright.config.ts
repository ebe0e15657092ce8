import { defineConfig } from '@playwright/test'

const port = Number(process.env.E2E_PORT ?? 3100)

/** Browser tests run against the built static export in out/, served by the same server as `npm start`. */
export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  retries: 0,
  reporter: [['list']],
  timeout: 60_000,
  // A loaded 2-core machine can take more than the default 5 s to render a client-side navigation
  // (seen: back after a content link, static-content.spec.ts); waits still end as soon as they hold.
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [
    { name: 'site' },
    // The console's core flow again, on a Ferry that keeps its data in PostgreSQL and its artifacts in S3 (radosgw).
    { name: 'console-pg-s3', testMatch: 'console.spec.ts', grep: /@core/ },
  ],
  webServer: {
    command: `npx serve out -l ${port} --no-port-switching --no-clipboard`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 30_000,
  },
})
