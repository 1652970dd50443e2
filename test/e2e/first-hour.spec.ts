import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describeColumn } from '#shared/sheet/columns.ts'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { saved } from './harness/editor-page.ts'
import { history } from './harness/sync-page.ts'
import { environmentCaption, LOADED, modelCaption } from './harness/preview-page.ts'
import { docsPicture } from './harness/docs-pictures.ts'

// The README's "Your first five minutes" (issue #21), walked as it is written, on the built app
// with the embedded sandbox, at the two widths the issue asks to look at: open the app, download
// the template, add a row of your own with a decimal comma, import both rows, fix the one with the
// error, sync to the Sandbox, read the history. axe runs on every page the walk passes.
//
// `npm run docs:screenshots` runs this file with DOCS_SCREENSHOTS_DIR set: the wide walk then
// saves the README's pictures (docs/screenshots/) at the steps the README shows, so the pictures
// are of the app as it is.

const readme = join(dirname(fileURLToPath(import.meta.url)), '../../README.md')

/**
 * What the README's steps name in bold (buttons, links, headings, states): the words the reader
 * looks for on the screen. The walk checks that each is there, so the README cannot drift from
 * the app unnoticed.
 */
function namedInReadmeSteps(): string[] {
  const text = readFileSync(readme, 'utf8')
  const start = text.indexOf('## Your first five minutes')
  const steps = text.slice(start, text.indexOf('\nFrom here:', start))
  expect(start, 'the README has its first five minutes').toBeGreaterThan(0)
  // A step's own title ("1. **Open Catalog Desk.**") is the README's, not the app's.
  const body = steps.replaceAll(/^\d+\. \*\*[^*]+\*\*/gm, '')
  return [
    ...new Set([...body.matchAll(/\*\*([^*]+)\*\*/g)].map((match) => match[1]!.replaceAll(/\s+/g, ' '))),
  ]
}

/** What the README and the app say a destination and a profile are, where each word is first used. */
const MEANING = {
  destination:
    "A destination is where your drafts are sent: one of the service's environments, such as the Sandbox built into this app, Staging or Production.",
  profile: 'A profile is the address and token the app uses to reach one.',
}

/**
 * A newcomer meets "destination" and "profile" in the sentence that says what each is (issue #37):
 * the first use of each word in a page's text (or in the README) is in it.
 */
function explainedWhereFirstUsed(text: string, where: string) {
  const flat = text.replaceAll(/\s+/g, ' ')
  for (const [word, sentence] of Object.entries(MEANING)) {
    expect(flat, `${where} says what a ${word} is`).toContain(sentence)
    expect(flat.toLowerCase().indexOf(word), `${where} uses "${word}" first in "${sentence}"`).toBe(
      flat.indexOf(sentence) + sentence.toLowerCase().indexOf(word),
    )
  }
}

/** The row the README has the reader add: the example's copy, renamed, with Intensity "1,5". */
const MY_ROW = { productName: 'Aviator Classic Silver 58', barcode: '8901234567883', intensity: '1,5' }

/**
 * The template as the reader saves it after step 3: its header, help and example rows as
 * downloaded, and below them a copy of the example with MY_ROW's values in their columns, found
 * as the reader finds them: by the titles the editor shows ("Intensity").
 */
function withMyRow(template: string): { file: string; example: Record<string, string> } {
  const { headers, rows } = parseCsvText(template)
  const [help, example] = rows
  const column = (path: string) => {
    const index = headers.indexOf(describeColumn(path))
    if (index < 0) throw new Error(`the template has no ${describeColumn(path)} column`)
    return index
  }
  const mine = [...example!]
  mine[column('productName')] = MY_ROW.productName
  mine[column('barcode')] = MY_ROW.barcode
  mine[column('arEffect.envSettings.intensity')] = MY_ROW.intensity
  const named = Object.fromEntries(['productName', 'barcode'].map((path) => [path, example![column(path)]!]))
  return { file: [headers, help!, example!, mine].map(savedLine).join(''), example: named }
}

/** A line as a spreadsheet saves CSV: a cell is quoted only when it holds a comma, quote or line break. */
const savedLine = (cells: readonly string[]) =>
  cells.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(',') + '\r\n'

for (const width of [1440, 1024]) {
  test(`the README's first five minutes work as written, at ${width} px`, async ({ page, sandbox }) => {
    // The walk waits for the preview's model and studio too, which a loaded machine makes slow.
    test.setTimeout(90_000)
    await page.setViewportSize({ width, height: 900 })

    /** What each page showed, for the README's words. */
    const shown: string[] = []
    /** axe on the page as it is, and the README's picture of it when asked for one. */
    const look = async (name: string, docs?: string) => {
      expect(await axe(page), `axe on ${name}`).toEqual([])
      shown.push(await page.locator('body').innerText())
      await screenshot(page, `first-hour-${width}-${name}`)
      if (docs && width === 1440) await docsPicture(page, docs)
    }

    // 1. Open it: the empty list, sending to the Sandbox, no token needed.
    await page.goto('/')
    await expect(page.getByRole('heading', { name: 'No SKU drafts yet' })).toBeVisible()
    await expect(page.getByText(/Syncing goes to Sandbox, the sandbox built into this app/)).toBeVisible()
    await look('empty-list', 'first-start')
    explainedWhereFirstUsed(shown.at(-1)!, 'the empty list')

    // 2. Download the template.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'CSV template' }).click(),
    ])
    expect(download.suggestedFilename()).toBe('catalog-desk-template.csv')
    const template = await readFile((await download.path())!, 'utf8')
    // Headed by the titles the editor and the README use, not by contract paths.
    expect(parseCsvText(template).headers).toEqual(expect.arrayContaining(['Intensity', 'Product name']))

    // 3. Make it yours: a copy of the example row with another name and barcode, Intensity "1,5".
    const { file, example } = withMyRow(template)
    expect(example.productName).toBe('Aviator Classic Gold 58')

    // 4. Import it: the check finds the decimal comma on line 4 (header, help row, example, yours),
    // and the row comes in to be fixed.
    await page.getByRole('link', { name: 'Import' }).click()
    await expect(page.getByRole('heading', { name: 'Import SKUs', level: 1 })).toBeVisible()
    await look('import-choose')
    await page.getByLabel('Choose a file').setInputFiles({
      name: 'my-first-sheet.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(file),
    })
    await look('import-mapping')
    await page.getByRole('button', { name: 'Check the rows' }).click()
    await expect(page.getByRole('heading', { name: 'What the file holds' })).toBeVisible()
    const problem = page.getByText('Intensity must be a number with a dot for decimals', { exact: false })
    await expect(problem).toContainText('not the text "1,5"')
    await expect(page.getByText('Line 4 “1,5”')).toBeVisible()
    await page.getByLabel('Also import the row with errors as drafts (to fix in the app)').check()
    await look('import-check', 'import-check')
    await page.getByRole('button', { name: 'Import 2 rows' }).click()
    await expect(page.getByRole('heading', { name: '2 drafts imported' })).toBeVisible()
    await expect(page.getByText('1 row imported with errors: fix it in the app')).toBeVisible()
    await look('import-done')

    // 5. Fix the row: its link opens its draft; Intensity 1.5, saved as typed, Ready to send.
    await page
      .getByRole('link', { name: /^Line 4/ })
      .first()
      .click()
    await expect(page.getByRole('heading', { name: MY_ROW.productName, level: 1 })).toBeVisible()
    // The template's sample addresses show the app's own model, studio and picture: nothing on the
    // page says it could not be loaded (the unit tests show main looks none of them up).
    await expect(modelCaption(page)).toHaveText(
      'Showing sample-glasses.glb (asset “frame”), the SKU’s first 3D asset.',
      LOADED,
    )
    await expect(environmentCaption(page)).toHaveText(
      'Lit by studio.hdr, the SKU’s environment image.',
      LOADED,
    )
    const picture = page.getByRole('img', { name: 'Product image preview' })
    await expect(picture).toBeVisible()
    await expect
      .poll(() => picture.evaluate((img) => (img as { naturalWidth: number }).naturalWidth))
      .toBe(320)
    await expect(page.getByText(/could not be loaded/)).toHaveCount(0)
    const intensity = page.getByLabel('Intensity', { exact: true })
    await expect(intensity).toHaveValue('1,5')
    await intensity.fill('1.5')
    await saved(page)
    await expect(page.getByText('Ready to send', { exact: true })).toBeVisible()
    // The top of the editor, with its badge and the preview, is the picture the README shows.
    await page.evaluate(() =>
      (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
    )
    await look('editor-fixed', 'editor')

    // The list: both drafts ready, neither sent yet.
    await page.getByRole('link', { name: '← All SKUs' }).click()
    const grid = page.getByRole('grid', { name: 'SKUs' })
    for (const name of [example.productName!, MY_ROW.productName]) {
      const row = grid.getByRole('row').filter({ hasText: name })
      await expect(row.getByText('Ready', { exact: true })).toBeVisible()
      await expect(row.getByText('Not sent', { exact: true })).toBeVisible()
    }
    await look('list', 'list')

    // 6. Sync: "Create 2 new on Sandbox", both end synced, and the Sandbox has them.
    await page.getByRole('link', { name: 'Sync' }).click()
    await expect(
      page.getByText('Sandbox: a service on this computer that behaves like the platform'),
    ).toBeVisible()
    await look('sync-start')
    explainedWhereFirstUsed(shown.at(-1)!, 'the Sync page')
    await page.getByRole('button', { name: 'Create 2 new on Sandbox' }).click()
    const run = page.getByRole('region', { name: /^Finished/ })
    await expect(run.getByText('2 of 2 SKUs done')).toBeVisible()
    await expect(page.getByRole('list', { name: 'SKUs by state' }).getByRole('listitem').first()).toHaveText(
      /Synced\s*2/,
    )
    const received = sandbox.received().skus.map((entry) => entry.sku as Record<string, unknown>)
    expect(received.map((sku) => sku.barcode).sort()).toEqual([example.barcode, MY_ROW.barcode].sort())
    const silver = received.find((sku) => sku.barcode === MY_ROW.barcode) as {
      arEffect: { envSettings: { intensity: unknown } }
    }
    expect(silver.arEffect.envSettings.intensity).toBe(1.5)

    // 7. The history: the run, its one request, created, with the two SKUs in it.
    const runs = history(page)
    await expect(runs.getByText('2 synced')).toBeVisible()
    await expect(runs.getByText('Created · HTTP 201')).toBeVisible()
    await runs.getByText('2 SKUs', { exact: true }).click()
    await expect(runs.getByText(MY_ROW.barcode)).toBeVisible()
    await look('sync-history', 'sync')

    // The README says what the two words mean as the app does, where it first uses them.
    explainedWhereFirstUsed(readFileSync(readme, 'utf8').replaceAll('*', ''), 'the README')
    // Every name the README's steps put in bold was on one of the pages.
    const named = namedInReadmeSteps()
    expect(named.length).toBeGreaterThan(15)
    expect(named.filter((words) => !shown.some((text) => text.includes(words)))).toEqual([])
  })
}
