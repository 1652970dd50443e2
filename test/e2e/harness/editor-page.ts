import type { Page } from '@playwright/test'
import { expect } from './fixtures.ts'

/** The SKU editor as a person reaches it: a new draft from the list's "New SKU". */
export async function newDraft(page: Page) {
  await page.goto('/')
  await page.getByRole('button', { name: 'New SKU' }).click()
  await expect(page.getByRole('heading', { name: 'Untitled SKU' })).toBeVisible()
}

/**
 * Waits until the editor (SKU or app) says every change is in IndexedDB. A save is a short pause
 * after typing and a transaction; on a busy two-core machine it has taken more than the default 5 s
 * to be said, so the wait for it is longer (the test still goes on as soon as it is said).
 */
export const saved = (page: Page) =>
  expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible({ timeout: 15_000 })

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** A control's name in either editor: a field the draft lacks says " · not filled" after its label. */
export const labelled = (name: string) => new RegExp(`^${escaped(name)}( · not filled)?$`)
/** A yes/no field: one select of On, Off and Not set (a select is a combobox). */
export const flag = (page: Page, name: string) => page.getByRole('combobox', { name: labelled(name) })
