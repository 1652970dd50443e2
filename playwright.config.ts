import { existsSync } from 'node:fs'
import { defineConfig } from '@playwright/test'

/**
 * Which Chromium to drive: an explicit path wins, then Debian's (the CI machines have no
 * Playwright browser download), else Playwright's own browser where one is installed.
 */
function chromiumPath(): string | undefined {
  const fromEnv = process.env.CATALOG_DESK_CHROMIUM
  if (fromEnv) return fromEnv
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium'
  return undefined
}

const executablePath = chromiumPath()

export default defineConfig({
  testDir: 'test',
  outputDir: 'test-results/artifacts',
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Two cores: two workers share the machine with the static server and the browser.
  workers: process.env.CI ? 1 : 2,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      // Without the background-networking flags Chromium keeps dialling Google on a closed network.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [
    { name: 'browser', testMatch: 'e2e/**/*.spec.ts' },
    { name: 'electron', testMatch: 'electron/**/*.spec.ts' },
  ],
})
