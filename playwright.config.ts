import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS, chromiumExecutable } from './test/e2e/harness/chromium.ts'

const executablePath = chromiumExecutable()

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
  // How long an assertion waits for what it waits for (a page, a save, a sync's end): a ceiling,
  // never a pause. On a busy two-core machine a lazily loaded page has taken more than 5 s to show.
  expect: { timeout: 10_000 },
  use: {
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { ...(executablePath ? { executablePath } : {}), args: CHROMIUM_ARGS },
  },
  projects: [
    // Finds the Chromium, or installs Playwright's own, before the browser suite and only for it.
    { name: 'chromium', testMatch: 'e2e/chromium.setup.ts', use: { trace: 'off' } },
    { name: 'browser', testMatch: 'e2e/**/*.spec.ts', dependencies: ['chromium'] },
    { name: 'electron', testMatch: 'electron/**/*.spec.ts' },
  ],
})
