import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { axe, expect, test } from './harness/fixtures.ts'
import { openTryOnPicker } from './harness/fake-camera.ts'

// The person's own face photos in the try-on (issue #39): added from a file, kept by main in the
// app's data folder (the harness gives each test a folder of its own), listed beside the samples
// after a reload, refused plainly when they are no picture, and deleted after asking.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const portrait = readFileSync(join(repoRoot, 'resources/faces/006.jpg'))
/** The editor and the try-on on a shared two-core machine: ceilings, never pauses. */
const SLOW = { timeout: 30_000 }

test('adds a photo of my own, keeps it across a reload, refuses a file that is no picture, deletes after asking', async ({
  page,
}) => {
  test.setTimeout(120_000)
  let picker = await openTryOnPicker(page)
  const samples = await picker.getByRole('radio').count()

  // Added, listed after the samples, and chosen.
  await picker
    .locator('input[type=file]')
    .setInputFiles({ name: 'me at work.jpg', mimeType: 'image/jpeg', buffer: portrait })
  const mine = picker.getByRole('radio', { name: 'me at work.jpg' })
  await expect(mine).toBeChecked(SLOW)
  await expect(picker.getByRole('status')).toHaveText(
    /^Added "me at work\.jpg"\. It is kept in Catalog Desk's data folder/,
  )
  await expect(picker.getByRole('radio')).toHaveCount(samples + 1)
  expect(await axe(page, { include: '.face-picker' })).toEqual([])

  // A file that is no picture, whatever its name says: refused, naming it; nothing added.
  await picker.locator('input[type=file]').setInputFiles({
    name: 'holiday.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.from('<html>this is a web page saved as .jpg</html>'),
  })
  await expect(picker.getByRole('alert')).toHaveText(
    '"holiday.jpg" was not added: it is not a JPEG, PNG or WebP picture (read by its first bytes, whatever its name says).',
  )
  await expect(picker.getByRole('radio')).toHaveCount(samples + 1)

  // Kept by main: still there after a reload.
  await page.reload()
  await page.getByRole('radio', { name: 'Try on' }).check()
  picker = page.getByRole('region', { name: 'Face to try on' })
  await expect(picker.getByRole('radio', { name: 'me at work.jpg' })).toBeVisible()

  // Delete asks first; Cancel keeps it.
  await picker.getByRole('button', { name: 'Delete the photo me at work.jpg' }).click()
  const question = page.getByRole('alertdialog', { name: 'Delete the photo me at work.jpg?' })
  await expect(question).toBeVisible()
  expect(await axe(page)).toEqual([])
  await question.getByRole('button', { name: 'Cancel' }).click()
  await expect(picker.getByRole('radio', { name: 'me at work.jpg' })).toBeVisible()

  await picker.getByRole('radio', { name: 'me at work.jpg' }).check()
  await picker.getByRole('button', { name: 'Delete the photo me at work.jpg' }).click()
  await question.getByRole('button', { name: 'Delete photo' }).click()
  await expect(picker.getByRole('radio', { name: 'me at work.jpg' })).toHaveCount(0)
  await expect(picker.getByRole('status')).toHaveText('Deleted "me at work.jpg".')
  // The deleted photo was the one shown: the first sample takes its place.
  await expect(picker.getByRole('radio').first()).toBeChecked()
  await page.reload()
  await page.getByRole('radio', { name: 'Try on' }).check()
  await expect(page.getByRole('region', { name: 'Face to try on' }).getByRole('radio')).toHaveCount(samples)
})
