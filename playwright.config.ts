import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS, chromiumExecutable } from './test/e2e/harness/chromium.ts'

const executablePath = chromiumExecutable()
/** Browser tests that measure time on the page (its long tasks): run with nothing beside them. */
const QUIET = 'e2e/preview-responsive.spec.ts'

export default defineConfig({
  testDir: 'test',
  outputDir: 'test-results/artifacts',
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Two cores, two workers: the browser suite took 18.3 min with one and 14.8 with two on the same
  // machine (docs/testing.md). The one test that measures the page's long tasks runs alone, after
  // the rest (`browser-quiet`): another worker's load would lengthen the tasks it measures.
  workers: 2,
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
    { name: 'browser', testMatch: 'e2e/**/*.spec.ts', testIgnore: QUIET, dependencies: ['chromium'] },
    { name: 'browser-quiet', testMatch: QUIET, dependencies: ['browser'] },
    { name: 'electron', testMatch: 'electron/**/*.spec.ts' },
  ],
})
