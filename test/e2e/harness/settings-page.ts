import type { Page } from '@playwright/test'
import { expect } from './fixtures.ts'

/** Adds a profile from Settings as a person would, and waits until its form shows it. */
export async function addProfile(page: Page, name: string, url: string) {
  await page.getByRole('button', { name: 'Add profile' }).click()
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Service address (base URL)').fill(url)
  await page.getByRole('button', { name: 'Save new profile' }).click()
  await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible()
}

/** Saves a token for the selected profile as a person would, and waits until it is kept. */
export async function saveToken(page: Page, token: string) {
  await page.getByLabel(/^(Paste|Replace) the token$/).fill(token)
  await page.getByRole('button', { name: 'Save token' }).click()
  await expect(page.getByText(/Token (saved in the system keychain|kept in memory)/)).toBeVisible()
}

/** Opens Settings and waits for its profiles. */
export async function openSettings(page: Page) {
  await page.goto('/#/settings')
  await expect(page.getByRole('heading', { name: 'Service profiles' })).toBeVisible()
}
