import type { Locator, Page } from '@playwright/test'
import { expect } from './fixtures.ts'

/** The confirmation a decision opens (the one modal open at a time). */
export const confirmation = (page: Page) => page.getByRole('alertdialog')

/** A batch's decision button: each opens a confirmation first. */
export const decisionButton = (batch: Locator, choice: 'created' | 'resend') =>
  batch.getByRole('button', { name: choice === 'created' ? 'Mark as created…' : 'Send again…' })

/**
 * Decides about a batch waiting for a decision as a person does: its button, then the
 * confirmation's, which is named by the action ("Send 6 SKUs again", "Mark the app “X” as created").
 */
export async function decide(page: Page, batch: Locator, choice: 'created' | 'resend'): Promise<void> {
  await decisionButton(batch, choice).click()
  const dialog = confirmation(page)
  await expect(dialog).toBeVisible()
  await dialog
    .getByRole('button', { name: choice === 'created' ? /^Mark .+ as created$/ : /^Send .+ again$/ })
    .click()
  await expect(dialog).toBeHidden()
}
