import type { Page } from '@playwright/test'
import { expect } from './fixtures.ts'
import type { Credentials } from './team-server.ts'

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

/**
 * Waits until Settings has drawn what each of its panels reads from main (the active profile, the
 * team workspace, this computer's settings and budgets, the updates' state): until then the page
 * grows, and the window's scroll moves with it.
 */
export async function settingsDrawn(page: Page) {
  await expect(page.getByRole('region', { name: 'Connection' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Join' })).toBeAttached()
  await expect(page.getByRole('checkbox', { name: 'Allow local addresses' })).toBeAttached()
  await expect(page.getByRole('button', { name: 'Save budgets' })).toBeAttached()
  await expect(page.getByRole('checkbox', { name: 'Check for updates automatically' })).toBeAttached()
}

/** Joins a team workspace from Settings as `who`, and waits until it is up to date. */
export async function joinTeamWorkspace(page: Page, workspaceUrl: string, who: Credentials) {
  await openSettings(page)
  const team = page.getByRole('region', { name: 'Team workspace' })
  await team.getByLabel('Workspace address').fill(workspaceUrl)
  await team.getByLabel('User name').fill(who.username)
  await team.getByLabel('Password', { exact: true }).fill(who.password)
  await team.getByRole('button', { name: 'Join' }).click()
  await expect(team.getByRole('status')).toHaveText('Up to date')
}
