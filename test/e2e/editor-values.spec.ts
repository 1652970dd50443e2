import type { Locator, Page } from '@playwright/test'
import { getAt } from '#shared/json-path.ts'
import { newSkuPayload } from '#shared/schema/sku-template.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { newDraft, saved } from './harness/editor-page.ts'
import { rowAt, selected } from './harness/list-page.ts'
import { putDrafts, storedDrafts, type StoredDraft } from './harness/stored-drafts.ts'

/**
 * What a number typed into a form becomes: read as the importer reads it, never guessed at.
 * Text that is not a number stays where it was typed, kept in the draft and shown as an error,
 * instead of being turned into another number ("1,5" into 15) or dropped ("abc"). Text the
 * platform may not take (a shop's own status) is kept and said.
 */

/** The reader's words for a comma in a number (src/shared/values/number-text.ts). */
const COMMA_MESSAGE =
  'Intensity must be a number with a dot for decimals and no thousands separator (such as 1234.5), not the text "1,5"'

const intensityField = (page: Page) => page.getByLabel('Intensity', { exact: true })

/** Types into a field key by key, as a person does (`fill` would skip what the browser does per key). */
async function typeInto(field: Locator, text: string) {
  await field.fill('')
  await field.pressSequentially(text)
}

async function storedIntensity(page: Page): Promise<{ present: boolean; value: unknown }> {
  const [draft] = await storedDrafts(page)
  const env = (draft?.payload.arEffect as { envSettings?: Record<string, unknown> } | undefined)?.envSettings
  return { present: env !== undefined && 'intensity' in env, value: env?.intensity }
}

test.describe('numbers typed into the editor', () => {
  test('"1,5" stays as typed with the reader’s message, and is stored as 1.5 once written with a dot', async ({
    page,
  }) => {
    await newDraft(page)
    const intensity = intensityField(page)
    await typeInto(intensity, '1,5')

    await expect(intensity).toHaveValue('1,5')
    await expect(intensity).toHaveAttribute('aria-invalid', 'true')
    await expect(intensity).toHaveAccessibleDescription(new RegExp(escape(COMMA_MESSAGE)))
    await expect(page.locator('.summary').getByText('1 error')).toBeVisible()
    await saved(page)
    const [draft] = await storedDrafts(page)
    expect(draft?.validity).toBe('invalid')
    expect(await storedIntensity(page)).toEqual({ present: true, value: '1,5' })

    await intensity.scrollIntoViewIfNeeded()
    await screenshot(page, 'editor-number-with-comma')
    expect(await axe(page)).toEqual([])

    await typeInto(intensity, '1.5')
    await expect(intensity).toHaveAttribute('aria-invalid', 'false')
    await expect(page.getByText(COMMA_MESSAGE)).toHaveCount(0)
    await saved(page)
    expect(await storedIntensity(page)).toEqual({ present: true, value: 1.5 })
    await expect(intensity).toHaveAttribute('role', 'spinbutton')
    await expect(intensity).toHaveAttribute('aria-valuenow', '1.5')
  })

  test('"abc" stays visible with an error and is kept in the draft; emptying the field removes it', async ({
    page,
  }) => {
    await newDraft(page)
    const intensity = intensityField(page)
    await typeInto(intensity, 'abc')

    await expect(intensity).toHaveValue('abc')
    await expect(intensity).toHaveAccessibleDescription(/Intensity must be a number, not the text "abc"/)
    await expect(intensity).not.toHaveAttribute('aria-valuenow')
    await saved(page)
    expect(await storedIntensity(page)).toEqual({ present: true, value: 'abc' })

    // What was kept is shown again as it was typed.
    await page.reload()
    await expect(intensityField(page)).toHaveValue('abc')
    await expect(intensityField(page)).toHaveAttribute('aria-invalid', 'true')

    // The steppers leave text that is not a number alone rather than replace it.
    await intensityField(page).press('ArrowUp')
    await expect(intensityField(page)).toHaveValue('abc')

    await intensityField(page).fill('')
    await expect(page.getByText('Intensity is not filled (optional)')).toBeAttached()
    await saved(page)
    expect(await storedIntensity(page)).toEqual({ present: false, value: undefined })
  })

  test('steppers move by the field’s step without float noise', async ({ page }) => {
    await newDraft(page)
    const intensity = intensityField(page)
    await intensity.fill('0.1')
    await intensity.press('ArrowUp')
    await intensity.press('ArrowUp')
    // 0.1 + 0.1 + 0.1 is 0.30000000000000004 in floating point.
    await expect(intensity).toHaveValue('0.3')
    await intensity.press('ArrowDown')
    await expect(intensity).toHaveValue('0.2')
    await saved(page)
    expect(await storedIntensity(page)).toEqual({ present: true, value: 0.2 })
  })
})

test.describe('setting a number on many drafts', () => {
  /** Drafts as a sheet without environment columns leaves them: every other section there. */
  function withoutEnvironment(name: string, i: number): Record<string, unknown> {
    const payload = {
      ...newSkuPayload(),
      productName: name,
      brand: 'Northwind Optics',
      barcode: String(8_901_000_000_100 + i),
    } as Record<string, unknown>
    delete (payload.arEffect as Record<string, unknown>).envSettings
    return payload
  }

  const grid = (page: Page) => page.getByRole('grid', { name: 'SKUs' })

  /** The problem badge of every row, by product name. */
  async function badges(page: Page, names: readonly string[]): Promise<Record<string, string>> {
    const out: Record<string, string> = {}
    for (const name of names) {
      out[name] = (await grid(page).getByRole('row', { name }).locator('.badge').first().textContent()) ?? ''
    }
    return out
  }

  const problemCount = (badge: string) => (badge === 'Ready' ? 0 : Number.parseInt(badge, 10))

  /** Opens the list on three drafts without an environment, and Set field… on all three. */
  async function setFieldOnThree(page: Page, names: readonly string[]): Promise<Locator> {
    await page.goto('/#/skus')
    await expect(page.getByText('No SKU drafts yet')).toBeVisible()
    await putDrafts(page, names.map(withoutEnvironment))
    await page.reload()
    await expect(page.getByText('3 drafts on this computer')).toBeVisible()
    await rowAt(page, 0).getByRole('gridcell').nth(3).click()
    await rowAt(page, 2)
      .getByRole('gridcell')
      .nth(3)
      .click({ modifiers: ['Shift'] })
    await expect(selected(page)).toContainText('3 selected')
    await page.getByRole('button', { name: 'Set field…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Set a field on 3 drafts' })
    await dialog.getByLabel('Field').selectOption({ label: 'Intensity' })
    return dialog
  }

  test('Set field reads the number as the editor does: "1,5" is refused with the reader’s words', async ({
    page,
  }) => {
    const dialog = await setFieldOnThree(page, ['Aviator A', 'Aviator B', 'Aviator C'])
    const value = dialog.getByLabel('New value')
    await expect(value).toHaveAttribute('inputmode', 'decimal')
    await value.fill('1,5')
    await value.press('Enter')
    await expect(dialog.getByText(COMMA_MESSAGE)).toBeVisible()
    await expect(value).toHaveAttribute('aria-invalid', 'true')
    await expect(dialog).toBeVisible()
    await screenshot(page, 'bulk-set-number-with-comma')
    expect(await axe(page)).toEqual([])

    await value.fill('1.5')
    await expect(dialog.getByText(COMMA_MESSAGE)).toHaveCount(0)
    await dialog.getByRole('button', { name: 'Set Intensity' }).click()
    await expect(dialog).toBeHidden()
    for (const draft of await storedDrafts(page)) {
      expect(getAt(draft.payload, ['arEffect', 'envSettings', 'intensity']), draft.productName).toBe(1.5)
    }
  })

  test('Intensity set on drafts without an environment brings the template’s environment, and no new problems', async ({
    page,
  }) => {
    const names = ['Aviator A', 'Aviator B', 'Aviator C']
    const dialog = await setFieldOnThree(page, names)
    const before = await badges(page, names)
    const storedBefore = await storedDrafts(page)

    await dialog.getByLabel('New value').fill('2')
    await dialog.getByRole('button', { name: 'Set Intensity' }).click()
    await expect(dialog).toBeHidden()
    await expect(page.getByRole('status').filter({ hasText: 'Intensity set on 3 drafts.' })).toBeVisible()

    const after = await storedDrafts(page)
    // No draft has more problems than before, as stored or as the list shows them.
    const countsOf = (drafts: StoredDraft[]) =>
      Object.fromEntries(drafts.map((d) => [d.productName, Number(d.warningCount) + Number(d.errorCount)]))
    const storedCounts = countsOf(after)
    for (const [name, count] of Object.entries(countsOf(storedBefore))) {
      expect(storedCounts[name], name).toBeLessThanOrEqual(count)
    }
    // Once the list has re-read the edited drafts (their badges change: the Environment, not filled, went).
    await expect.poll(async () => Object.values(await badges(page, names))).not.toEqual(Object.values(before))
    const shown = await badges(page, names)
    for (const name of names)
      expect(problemCount(shown[name]!), name).toBeLessThanOrEqual(problemCount(before[name]!))

    // The section is the template's, with the value set in it.
    const template = newSkuPayload().arEffect!.envSettings!
    for (const draft of after) {
      expect(getAt(draft.payload, ['arEffect', 'envSettings']), draft.productName).toEqual({
        ...template,
        intensity: 2,
      })
    }
  })
})

test.describe('text typed into the editor', () => {
  test('a status the platform is not known to take is said under the field, and the draft stays valid', async ({
    page,
  }) => {
    await newDraft(page)
    const status = page.getByLabel('Status', { exact: true })
    await typeInto(status, 'Enabled')
    await expect(status).toHaveAccessibleDescription(
      /Status “Enabled” is not one the platform is known to take \(DRAFT or PUBLISHED\)/,
    )
    await expect(status).toHaveAttribute('aria-invalid', 'false')
    await saved(page)
    const [draft] = await storedDrafts(page)
    expect(draft?.validity).not.toBe('invalid')
    expect(draft?.payload.status).toBe('Enabled')
    await typeInto(status, 'PUBLISHED')
    await expect(page.getByText(/is not one the platform is known to take/)).toHaveCount(0)
  })
})

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
