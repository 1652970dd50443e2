import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Locator, Page } from '@playwright/test'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'

/**
 * A Google Merchant Center feed in XML (Google's own example feed, RSS 2.0, in
 * test/fixtures/sheets/exports/real) imported as a CSV is: the same mapping screen, the same dry run.
 */

const real = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/sheets/exports/real')

const field = (page: Page, header: string) =>
  page.getByLabel(`Field for the column ${header}`, { exact: true })
const row = (page: Page, header: string): Locator =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: header, exact: true }) })

test('a Merchant Center XML feed: its elements mapped as columns, the jeans read as variants', async ({
  page,
  pageProblems,
}) => {
  pageProblems.allow(/Failed to load resource/)
  await page.goto('/#/skus')
  await page.getByRole('link', { name: 'Import' }).click()
  await expect(page.getByRole('heading', { name: 'Import SKUs', level: 1 })).toBeVisible()
  await page.getByLabel('Choose a file').setInputFiles(join(real, 'google-merchant-example-feed.rss.xml'))
  await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeFocused()
  await expect(
    page.getByText(
      'Read as a Google Merchant Center feed: items with the same item_group_id are the variants of one product.',
    ),
  ).toBeVisible()

  // Each element is a column, chosen as a catalog manager would.
  await expect(field(page, 'title')).toHaveValue('productName')
  await expect(field(page, 'link')).toHaveValue('actionUrl')
  await expect(field(page, 'image_link')).toHaveValue('productImage')
  await expect(field(page, 'brand')).toHaveValue('brand')
  await expect(field(page, 'gtin')).toHaveValue('barcode')
  await expect(field(page, 'product_type')).toHaveValue('category')
  // The maker's part number is not the barcode; Google's taxonomy and the variant columns are the format's.
  await expect(field(page, 'mpn')).toHaveValue('')
  await expect(row(page, 'mpn')).toContainText('A shop’s own code, not a barcode')
  await expect(field(page, 'google_product_category')).toHaveCount(0)
  await expect(row(page, 'google_product_category')).toContainText(
    'The taxonomy of Google Shopping, not the platform’s category',
  )
  await expect(row(page, 'item_group_id')).toContainText('Groups the variants of one product')
  await expect(row(page, 'color')).toContainText('A variant’s attribute (its option)')
  // The samples are the feed's first items, CDATA read as text.
  await expect(row(page, 'title')).toContainText('Merlin: Series 3 - Volume 2 - 3 DVD Box set')
  expect(await axe(page)).toEqual([])
  await screenshot(page, 'import-feeds-mapping')

  await page.getByRole('button', { name: 'Check the rows' }).click()
  await expect(page.getByRole('heading', { name: 'What the file holds' })).toBeFocused()
  const reading = page.getByRole('region', { name: 'How the file was read' })
  await expect(reading).toContainText('Read as a Google Merchant Center feed: 5 products, 2 variants.')
  const counts = page.locator('.import-counts')
  await expect(counts).toContainText('Rows6')
  await expect(counts).toContainText('Ready to send4')
  // The jeans have no gtin: held back, never given their mpn for a barcode.
  await expect(counts).toContainText('Held back from sending2')
  await expect(counts).toContainText('Errors0')
  await expect(page.getByRole('button', { name: /^Import 6/ })).toBeVisible()
  // Rows without a barcode match no draft: said before they are added.
  const withoutBarcode = page.locator('.import-duplicates__without')
  await expect(withoutBarcode).toHaveText(
    '2 rows without a barcode match no draft: whatever is chosen here, each is added as a new draft.',
  )
  await expect(page.locator('.import-duplicates__like')).toHaveCount(0)
  expect(await axe(page)).toEqual([])
  await screenshot(page, 'import-feeds-dry-run')

  // The same feed again (a tryout's second import): its barcodes are drafts now, and the two
  // without one would be added twice; said so before the person imports.
  await page.getByRole('button', { name: /^Import 6/ }).click()
  await expect(page.getByRole('heading', { name: '6 drafts imported' })).toBeVisible()
  await page.getByRole('button', { name: 'Import another file' }).click()
  await page.getByLabel('Choose a file').setInputFiles(join(real, 'google-merchant-example-feed.rss.xml'))
  await page.getByRole('button', { name: 'Check the rows' }).click()
  await expect(page.locator('.import-duplicates__counts')).toContainText('4 barcodes already exist as drafts')
  await expect(withoutBarcode).toHaveText(
    '2 rows without a barcode match no draft: whatever is chosen here, each is added as a new draft, again if this file was imported before.',
  )
  // Drafts named as they are, without a barcode, are there from the first import: the way to give
  // them barcodes is said (a tryout added a barcode column to its shop's file and had each twice).
  await expect(page.locator('.import-duplicates__like')).toHaveText(
    /^2 rows to be added are named as a draft you have without a barcode \(“.+”\): if they are the same products, importing adds them a second time\. To give drafts you have their barcodes, export them, fill in the Barcode column and import that file: its rows name their drafts\.\s*$/,
  )
  await screenshot(page, 'import-feeds-again-named-like-drafts')
})

/**
 * A feed with Google's taxonomy and no product_type of the shop's own (as a real pharmacy's feed
 * of 60 items is, whose every SKU was held back for want of a category): Google's paths are
 * offered as the category, never taken unasked. A few items written here after it.
 */
const PHARMACY_FEED = `<?xml version="1.0"?>
<rss xmlns:g="http://base.google.com/ns/1.0" version="2.0"><channel><title>Pharmacy</title>
<item><g:id>1</g:id><g:title>Vitamin C 1000 mg</g:title><g:brand>Lucky</g:brand><g:gtin>4006381333931</g:gtin>
<g:google_product_category>Health &amp; Beauty &gt; Health Care</g:google_product_category></item>
<item><g:id>2</g:id><g:title>Mint toothpaste</g:title><g:brand>Lucky</g:brand><g:gtin>5901234123457</g:gtin>
<g:google_product_category>Health &amp; Beauty &gt; Personal Care &gt; Oral Care</g:google_product_category></item>
</channel></rss>
`

test('a feed whose only category is Google’s: offered as the category, taken at the person’s word', async ({
  page,
}) => {
  await page.goto('/#/import')
  await page.getByLabel('Choose a file').setInputFiles({
    name: 'pharmacy-feed.xml',
    mimeType: 'application/xml',
    buffer: Buffer.from(PHARMACY_FEED),
  })
  await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeFocused()
  const google = row(page, 'google_product_category')
  await expect(google).toContainText(
    'The taxonomy of Google Shopping, not the platform’s category. No other column fills Category',
  )
  await expect(field(page, 'google_product_category')).toHaveCount(0)
  expect(await axe(page)).toEqual([])
  await screenshot(page, 'import-feeds-google-category')

  await google.getByRole('button', { name: /^Use for Category/ }).click()
  await expect(field(page, 'google_product_category')).toHaveValue('category')
  await expect(field(page, 'google_product_category')).toBeFocused()
  await page.getByRole('button', { name: 'Check the rows' }).click()
  const counts = page.locator('.import-counts')
  await expect(counts).toContainText('Ready to send2')
  await expect(counts).toContainText('Held back from sending0')
})
