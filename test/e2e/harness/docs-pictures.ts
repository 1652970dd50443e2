import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'

/**
 * The README's pictures (docs/screenshots/): `npm run docs:screenshots` runs the browser tests
 * that take them with DOCS_SCREENSHOTS_DIR set, so the pictures are of the app as it is, at the
 * steps the tests check. Without it, nothing is saved.
 */
const docsDir = process.env.DOCS_SCREENSHOTS_DIR

/** Whether this run takes the README's pictures. */
export const takingDocsPictures = docsDir !== undefined

/** Saves `what` (the window as a person sees it, or one element of it) as the README's `name`.png. */
export async function docsPicture(what: Page | Locator, name: string): Promise<void> {
  if (!docsDir) return
  await mkdir(docsDir, { recursive: true })
  await what.screenshot({ path: join(docsDir, `${name}.png`) })
}
