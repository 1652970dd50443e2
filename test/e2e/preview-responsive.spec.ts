import { seedDrafts } from '../../bench/seed-drafts.ts'
import { largeDracoModel } from '../../scripts/large-draco-model.ts'
import { expect, test } from './harness/fixtures.ts'
import { longTasksSince, longTasksText, pageNow, watchLongTasks } from './harness/long-tasks.ts'
import { modelCaption, settled, stageOf, startAssetServer, type AssetServer } from './harness/preview-page.ts'

// Opening a draft whose 3D asset is a 5 MB Draco model (2.9 million triangles) must not freeze the
// window (issue #37): the form takes typing while the model downloads, and no task of the page's
// main thread runs over 50 ms while the preview loads it (from its bytes arriving to its first frame:
// decoding, building the scene, compiling shaders, drawing). The editor's own opening is the
// `editor-open` benchmark's (docs/benchmarks.md). The model is made once for the run (a few
// seconds) and served on loopback, allowed as in preview.spec.ts.

const MODEL = '/models/large.glb'
let assets: AssetServer
/** The server holds the model's answer until this settles: the test types while it is on its way. */
let modelHeld: Promise<void> = Promise.resolve()

test.use({ allowLocalAddresses: true })

test.beforeAll(async () => {
  // Drawing the model takes seconds in software WebGL on two cores; making it, a few more.
  test.setTimeout(60_000)
  const { glb } = await largeDracoModel()
  assets = await startAssetServer({
    [MODEL]: { bytes: Buffer.from(glb), type: 'model/gltf-binary', wait: () => modelHeld },
  })
})

test.afterAll(async () => {
  await assets.close()
})

test('opening a draft with a 5 MB Draco model never freezes the window, and its form takes typing meanwhile', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await watchLongTasks(page)
  await page.goto('/#/skus')
  await expect(page.getByText('No SKU drafts yet')).toBeVisible()
  const [draft] = await seedDrafts(page, 1, { models: { 0: `${assets.url}${MODEL}` } })
  await page.reload()
  const link = page.getByRole('link', { name: draft!.productName, exact: true })
  await expect(link).toBeVisible()

  let answerModel!: () => void
  modelHeld = new Promise((resolve) => (answerModel = resolve))
  await link.click()

  // The model asked for and held back by its server: the form takes typing and shows it at once.
  await expect.poll(() => assets.requests).toContain(`GET ${MODEL}`)
  const name = page.getByRole('textbox', { name: 'Product name', exact: true })
  await name.press('End')
  await name.pressSequentially(' typed')
  await expect(name).toHaveValue(`${draft!.productName} typed`)
  await expect(stageOf(page)).toHaveAttribute('data-busy', 'true')
  await expect(modelCaption(page)).not.toContainText('large.glb')

  const loadingFrom = await pageNow(page)
  answerModel()
  await expect(modelCaption(page)).toHaveText(/^Showing large\.glb \(asset “frame”\)/, { timeout: 90_000 })
  await settled(page)
  const tasks = await longTasksSince(page, loadingFrom)
  expect(
    longTasksText(tasks, loadingFrom),
    'tasks of 50 ms or more on the page’s main thread, from the model’s bytes let go until it was drawn',
  ).toBe('no long task')
})
