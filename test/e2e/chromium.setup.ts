import { test as setup } from '@playwright/test'
import { ensureChromium } from './harness/chromium.ts'

// Runs before the browser suite (its project depends on this one), and only when that suite runs:
// the Chromium it drives is found, or Playwright's own is installed, once.
setup('a Chromium for the browser suite', async () => {
  // A first download of Playwright's Chromium takes a while.
  setup.setTimeout(10 * 60_000)
  console.log(`browser suite: ${await ensureChromium()}`)
})
