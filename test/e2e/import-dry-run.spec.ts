import { axe, expect, screenshot, test } from './harness/fixtures.ts'

// The import's dry run counts and marks its rows in the words the list and the Sync page use.

const DESKTOP = { width: 1440, height: 900 }

test.use({ actionTimeout: 10_000, viewport: DESKTOP })
test.describe("The import's dry run", () => {
  test('counts and marks the rows as the Sync page will: ready to send, held back, errors; a field nothing requires “not filled”', async ({
    page,
  }) => {
    await page.goto('/#/import')
    await page.getByLabel('Choose a file').setInputFiles({
      name: 'words.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        [
          'Product name,Brand,Barcode,Category,Sub category,Intensity',
          'Aviator,Northwind Optics,5000000000001,eyewear,sunglasses,1.2',
          'Round,Contoso Vision,5000000000002,eyewear,eyeglasses,high',
          'Oval,Lumen Eyewear,5000000000003,eyewear,eyeglasses,0.5',
        ].join('\r\n') + '\r\n',
      ),
    })
    await page.getByRole('button', { name: 'Check the rows' }).click()
    const counts = page.locator('.import-counts')
    await expect(counts).toHaveText(/^Rows3Ready to send2Held back from sending0Errors1$/)
    await expect(counts).not.toContainText(/Valid|Invalid|With warnings/)
    const checks = page.locator('.import-preview tbody tr td:last-child')
    await expect(checks).toHaveText([/^\d+ not filled$/, '1 error', /^\d+ not filled$/])
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'import-dry-run-words')
  })
})
