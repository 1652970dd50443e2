import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { newDraft, saved } from './harness/editor-page.ts'
import { storedDrafts } from './harness/stored-drafts.ts'

/** Chromium's log line when a thumbnail of an example address (which resolves nowhere) fails. */
const EXAMPLE_HOST_UNREACHABLE =
  /Failed to load resource: net::ERR_NAME_NOT_RESOLVED \(https:\/\/cdn\.example\.com\//

test.describe('SKU drafts', () => {
  test('a draft created through the form survives a reload, unknown fields included', async ({
    page,
    pageProblems,
  }) => {
    // The example image addresses lead nowhere; the thumbnail's failed load is expected.
    pageProblems.allow(EXAMPLE_HOST_UNREACHABLE)
    await newDraft(page)

    await page.getByLabel('Product name').fill('Aviator Classic Gold 58')
    await page.getByLabel('Brand').fill('Northwind Optics')
    await page.getByLabel('Barcode').fill('0890123456789')
    await page.getByLabel('Category', { exact: true }).fill('eyewear')
    await page.getByLabel('Sub-category').fill('sunglasses')
    await page.getByRole('combobox', { name: 'Active', exact: true }).selectOption({ label: 'On' })
    await page.getByLabel('Product image', { exact: true }).fill('https://cdn.example.com/aviator.png')
    await page.getByLabel('Position Y').fill('0.012')
    await page.getByLabel('Rotation X').fill('-2.5')
    await page.getByLabel('Field of view').fill('30deg')
    // Not set → Off.
    await page.getByRole('combobox', { name: 'Use default environment' }).selectOption({ label: 'Off' })
    await page.getByLabel('2D asset 3').fill('{"url": "https://cdn.example.com/lens.png"}')
    await page.getByRole('button', { name: 'Add 3D asset' }).click()
    await page.getByLabel('Asset ID').fill('frame')
    await page.getByLabel('Model address').fill('https://cdn.example.com/aviator.glb')
    // A second item: the list is rebuilt from the items already there, which must still save.
    await page.getByRole('button', { name: 'Add 3D asset' }).click()
    await page.getByLabel('Asset ID').nth(1).fill('lens')
    await page.getByLabel('Model address').nth(1).fill('https://cdn.example.com/lens.glb')
    await page.getByLabel('Lens width').fill('58')
    await page.getByLabel('Dimension unit').fill('mm')
    await page.getByLabel('Other top-level fields (JSON)').fill('{ "collectionIds": ["summer-26"] }')
    await saved(page)

    await page.reload()
    await expect(page.getByLabel('Product name')).toHaveValue('Aviator Classic Gold 58')
    await expect(page.getByLabel('Barcode')).toHaveValue('0890123456789')
    await expect(page.getByRole('combobox', { name: 'Active', exact: true })).toHaveValue('on')
    await expect(page.getByRole('combobox', { name: 'Use default environment' })).toHaveValue('off')
    await expect(page.getByLabel('Position Y')).toHaveValue('0.012')
    await expect(page.getByLabel('Model address').first()).toHaveValue('https://cdn.example.com/aviator.glb')
    await expect(page.getByLabel('Other top-level fields (JSON)')).toHaveValue(/"collectionIds"/)

    const [draft] = await storedDrafts(page)
    expect(draft?.payload).toMatchObject({
      productName: 'Aviator Classic Gold 58',
      barcode: '0890123456789',
      isActive: true,
      collectionIds: ['summer-26'],
      arEffect: {
        transform: { position: { x: 0, y: 0.012, z: 0 }, rotation: { x: -2.5, y: 0, z: 0 } },
        envSettings: { fieldOfView: '30deg', useDefaultEnvironment: false },
        effectAssets2D: [null, null, { url: 'https://cdn.example.com/lens.png' }, null, null, null, null],
        effectAssets3D: [
          { id: 'frame', url: 'https://cdn.example.com/aviator.glb' },
          { id: 'lens', url: 'https://cdn.example.com/lens.glb' },
        ],
      },
      // Typed into a text field of the meta group: stays text, never becomes the number 58.
      meta: { lensWidth: '58', dimensions: { unit: 'mm' } },
    })
    await expect(page.getByLabel('Payload JSON')).toContainText('"collectionIds"')
  })

  // A tryout lost an edit made just before a reload: the page went in the autosave's pause.
  test('an edit the page goes before saving (a reload, the window closed) is there when the app opens again', async ({
    page,
  }) => {
    // The page's timers stopped, so the autosave waits for good: the reload comes in its pause.
    await page.clock.install()
    await newDraft(page)
    await page.getByLabel('Product name').fill('Saved before')
    await saved(page)
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000)
    await page.getByLabel('Product name').fill('Typed just before closing')
    await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes…' })).toBeVisible()
    await page.reload()
    await page.clock.resume()
    await expect(page.getByLabel('Product name')).toHaveValue('Typed just before closing')
    await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible()
    expect((await storedDrafts(page)).map((draft) => draft.payload.productName)).toEqual([
      'Typed just before closing',
    ])
    // Kept once: the next start has nothing more to save.
    expect(
      await page.evaluate(() => Object.keys(localStorage).filter((key) => key.includes('unsaved-edit'))),
    ).toEqual([])
  })

  test('validates as the user types, in the catalogue’s words', async ({ page, pageProblems }) => {
    pageProblems.allow(EXAMPLE_HOST_UNREACHABLE)
    await newDraft(page)
    const image = page.getByLabel('Product image', { exact: true })
    await image.fill('cdn.example.com/aviator.png')
    await expect(image).toHaveAttribute('aria-invalid', 'true')
    await expect(
      page.getByText('Product image must be a web address starting with http:// or https://'),
    ).toBeVisible()
    await expect(page.getByText('1 error', { exact: true })).toBeVisible()
    await screenshot(page, 'sku-editor-error')

    await image.fill('https://cdn.example.com/aviator.png')
    await expect(image).toHaveAttribute('aria-invalid', 'false')
    await expect(page.getByText(/must be a web address/)).toHaveCount(0)

    // A new draft lacks the product's own fields: warnings, listed, never errors; those nothing
    // requires are "not filled (optional)".
    await page.getByText('Which fields are not filled (optional)').click()
    await expect(page.getByText('Brand is not filled (optional)')).toBeVisible()
    await page.getByLabel('Brand').fill('Northwind Optics')
    await expect(page.getByText('Brand is not filled (optional)')).toHaveCount(0)
    await saved(page)
    const [draft] = await storedDrafts(page)
    expect(draft?.validity).toBe('warnings')
  })

  test('lists drafts, finds them by a word of name, brand or barcode, and is accessible', async ({
    page,
  }) => {
    // Two drafts, two axe runs over the editor with its 3D preview, full-page screenshots: slow on
    // a 2-core machine with software WebGL.
    test.setTimeout(60_000)
    for (const [name, brand] of [
      ['Aviator Gold', 'Northwind'],
      ['Pearl Necklace', 'Lumen'],
    ]) {
      await newDraft(page)
      await page.getByLabel('Product name').fill(name!)
      await page.getByLabel('Brand').fill(brand!)
      await saved(page)
      expect(await axe(page)).toEqual([])
      await page.getByRole('link', { name: 'All SKUs' }).click()
    }

    const rows = page.getByRole('row')
    await expect(page.getByText('2 drafts on this computer')).toBeVisible()
    await expect(rows).toHaveCount(3)
    await page.getByLabel('Search SKUs').fill('lum')
    await expect(rows).toHaveCount(2)
    await expect(page.getByRole('link', { name: 'Pearl Necklace' })).toBeVisible()
    await page.getByLabel('Search SKUs').fill('nothing-like-this')
    await expect(page.getByText('No draft matches')).toBeVisible()
    await page.getByLabel('Search SKUs').fill('')
    await expect(rows).toHaveCount(3)
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'sku-list')

    await page.getByRole('link', { name: 'Aviator Gold' }).click()
    await expect(page.getByLabel('Brand')).toHaveValue('Northwind')
    await screenshot(page, 'sku-editor')
  })
})
