import type { Page } from '@playwright/test'
import { expect, test } from './harness/fixtures.ts'
import { joinTeamWorkspace } from './harness/settings-page.ts'
import type { Credentials } from './harness/team-server.ts'

const ANA: Credentials = { username: 'ana', password: 'ana-autumn-pass' }
const BEN: Credentials = { username: 'ben', password: 'ben-autumn-pass' }

/** Replication and the exchange each take their turn: a second or two on loopback. */
const ARRIVES = { timeout: 20_000 }

/** A shop's export with a column the matcher does not know ("Farbe", a German shop's colour). */
const sheet = (name: string) => ({
  name,
  mimeType: 'text/csv',
  buffer: Buffer.from('Product name,Farbe\r\nAviator 58,Rauchgrau\r\n'),
})

/** Opens a fresh import page (the window opened anew) and gives it the shop's file. */
async function openImport(page: Page, file: string) {
  await page.goto('/#/import')
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Import SKUs', level: 1 })).toBeVisible()
  await page.getByLabel('Choose a file').setInputFiles(sheet(file))
  await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeFocused()
}

test.describe('A team workspace’s saved column mappings (issue #41)', () => {
  test.slow()

  test('a mapping saved on one desk maps the same column on the other desk’s next import', async ({
    page,
    teamServer,
    openDesk,
  }) => {
    const workspaceUrl = await teamServer.createWorkspace('autumn', [ANA, BEN])
    await joinTeamWorkspace(page, workspaceUrl, ANA)
    const ben = await openDesk()
    await joinTeamWorkspace(ben, workspaceUrl, BEN)

    await openImport(page, 'ana-shop.csv')
    await page.getByLabel('Field for the column Farbe').selectOption({ label: 'Lens colour description' })
    await page.getByRole('button', { name: 'Save this mapping' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Mapping saved' })).toBeVisible()

    // Ben's next file with that column is mapped as Ana saved it, once her mapping has arrived.
    await expect
      .poll(async () => {
        await openImport(ben, 'ben-shop.csv')
        return ben.getByLabel('Field for the column Farbe').inputValue()
      }, ARRIVES)
      .toBe('meta.lensColorDescription')
    await expect(
      ben.getByRole('row').filter({ has: ben.getByRole('rowheader', { name: 'Farbe' }) }),
    ).toContainText('Your saved mapping')
  })
})
