import type { Page } from '@playwright/test'
import { IMAGE_HOST, seedDrafts, type SeededDraft } from '../../../bench/seed-drafts.ts'
import type { Profile } from '#shared/profile.ts'
import type { AppWindow, PageProblems } from './fixtures.ts'
import { expect } from './fixtures.ts'

/**
 * Opens the app, seeds `count` SKU drafts (every tenth, from the eighth, has an error: index % 10
 * === 7), and reloads. Product photos are answered with a 404 (the sync tests do not look at them).
 */
export async function seedForSync(
  page: Page,
  pageProblems: PageProblems,
  count: number,
  options: { sent?: number[] } = {},
): Promise<SeededDraft[]> {
  pageProblems.allow(/Failed to load resource/)
  await page.route(`https://${IMAGE_HOST}/**`, (route) => route.fulfill({ status: 404, body: '' }))
  await page.goto('/#/skus')
  await expect(page.getByText('No SKU drafts yet')).toBeVisible()
  const seeded = await seedDrafts(page, count, options)
  await page.reload()
  await expect(page.getByRole('grid', { name: 'SKUs' })).toBeVisible()
  return seeded
}

/** Whether seeded draft `index` passes validation (and so is sent by a run). */
export const seededValid = (index: number) => index % 10 !== 7

/**
 * Changes how a profile sends (batch size, concurrency) through the real `saveProfile` channel,
 * as the Settings form would.
 */
export async function setSending(
  page: Page,
  profileId: string,
  sending: { batchSize?: number; concurrency?: number },
): Promise<void> {
  await page.evaluate(
    async ({ profileId, sending }) => {
      const api = (globalThis as AppWindow).api
      const state = await api.listProfiles()
      const view = state.profiles.find((profile) => profile.id === profileId)
      if (!view) throw new Error(`no profile ${profileId}`)
      const profile = {
        id: view.id,
        name: view.name,
        kind: view.kind,
        tokenEncoding: view.tokenEncoding,
        batchSize: sending.batchSize ?? view.batchSize,
        concurrency: sending.concurrency ?? view.concurrency,
        timeouts: view.timeouts,
        ...(view.kind === 'service' ? { baseUrl: view.baseUrl } : {}),
      } as Profile
      await api.saveProfile(profile)
    },
    { profileId, sending },
  )
}

/**
 * Adds a service profile through the bridge and makes it the active one, with `token` when given
 * (without one, the Sync page starts no run to it). A profile the test reaches through the sandbox
 * needs one, of any text: its requests go to the sandbox, which takes them with its own.
 */
export async function addActiveProfile(page: Page, profile: Profile, token?: string): Promise<void> {
  await page.evaluate(
    async ({ profile, token }) => {
      const api = (globalThis as AppWindow).api
      await api.saveProfile(profile)
      if (token !== undefined) await api.setToken(profile.id, token)
      await api.activateProfile(profile.id)
    },
    { profile, token },
  )
}

/** The token of a profile reached through the sandbox (`addActiveProfile`): any text does. */
export const STAND_IN_TOKEN = 'a-token-of-its-own'
