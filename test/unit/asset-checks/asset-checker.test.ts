import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_BUDGETS } from '#shared/asset-checks/budgets.ts'
import { judge } from '#shared/asset-checks/judge.ts'
import type { ModelFacts } from '#shared/asset-checks/results.ts'
import { memoryCache } from '#node/asset-checks/asset-cache.ts'
import { createAssetChecker, type AssetCheckerOptions } from '#node/asset-checks/asset-checker.ts'
import { isPublicAddress } from '#node/net/local-addresses.ts'
import { REPO_ROOT } from '../shared/contract-fixtures.ts'
import { editedGlb, pmndrsModel, serveAssets, type AssetServer, type Served } from './asset-files.ts'

// The checker against the asset fixtures (KTX2, AVIF, WebP and meshopt models, a .gltf with an
// external buffer and picture) served on loopback. The internet is played by 127.0.0.2, which
// counts as a public address here (Linux answers on all of 127.0.0.0/8); 127.0.0.1 stays this
// computer, as it is for users, so local addresses are refused as they would be.

const INTERNET = '127.0.0.2'
const network: AssetCheckerOptions['network'] = {
  isPublic: (address) => address === INTERNET || isPublicAddress(address),
}
const fixture = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(join(REPO_ROOT, 'test/fixtures/assets', name)))
const gltfText = () => readFileSync(join(REPO_ROOT, 'test/fixtures/assets/external/textured.gltf'), 'utf8')

let servers: AssetServer[] = []
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()))
  servers = []
})
async function serve(files: Record<string, Served>, host = INTERNET) {
  const server = await serveAssets(files, host)
  servers.push(server)
  return server
}

const checker = (options: Partial<AssetCheckerOptions> = {}) =>
  createAssetChecker({
    allowLocalAddresses: () => false,
    budgets: DEFAULT_BUDGETS,
    concurrency: 4,
    network,
    ...options,
  })

/** The external .gltf fixture with its URIs replaced. */
function gltfNaming(buffer: string, images: string[]): string {
  const json = JSON.parse(gltfText()) as { buffers: { uri: string }[]; images: Record<string, unknown>[] }
  json.buffers[0]!.uri = buffer
  json.images = images.map((uri) => ({ mimeType: 'image/png', uri }))
  return JSON.stringify(json)
}

describe('models the preview decodes, which the validator does not know', () => {
  it('KTX2, AVIF, WebP and meshopt models are ok; textures’ sizes read from their own bytes', async () => {
    const server = await serve({
      '/ktx2.glb': { body: fixture('ktx2-textured.glb') },
      '/avif.glb': { body: fixture('avif-textured.glb') },
      '/webp.glb': { body: fixture('webp-textured.glb') },
      '/meshopt.glb': { body: fixture('meshopt-suzi.glb') },
    })
    const check = checker()
    const results = await Promise.all(
      ['ktx2', 'avif', 'webp', 'meshopt'].map(async (name) =>
        judge(await check.check(`${server.url}/${name}.glb`, 'model'), 'model', DEFAULT_BUDGETS),
      ),
    )
    // The validator's warnings on the KTX2 and AVIF images (it knows neither format) are not
    // repeated: their bytes were read here.
    expect(results.map((result) => [result.status, result.problems])).toEqual([
      ['ok', []],
      ['ok', []],
      ['ok', []],
      ['ok', []],
    ])
    const facts = results.map((result) => result.facts as ModelFacts)
    expect(facts.map((model) => model.textures)).toEqual([
      [{ pointer: '/images/0', type: 'image/ktx2', width: 512, height: 512 }],
      [{ pointer: '/images/0', type: 'image/avif', width: 512, height: 461 }],
      [{ pointer: '/images/0', type: 'image/webp', width: 512, height: 461 }],
      [],
    ])
    expect(facts.map((model) => model.triangles)).toEqual([2, 2, 2, 14_842])
    // The validator's own counts stay as it reported them (its two warnings on the KTX2 image).
    expect(facts[0]!.validator).toMatchObject({ errors: 0, warnings: 2 })
  })

  it('an extension the preview cannot show is a warning, saying whether the model would load there', async () => {
    const bunny = await pmndrsModel('bunny')
    const withExtensions = (used: string[], required: string[]) =>
      editedGlb(bunny, (json) => {
        json.extensionsUsed = [...(json.extensionsUsed as string[]), ...used]
        json.extensionsRequired = [...(json.extensionsRequired as string[]), ...required]
      })
    const server = await serve({
      '/required.glb': { body: withExtensions(['EXT_lights_image_based'], ['EXT_lights_image_based']) },
      '/used.glb': { body: withExtensions(['KHR_materials_variants'], []) },
    })
    const check = checker()
    const required = judge(await check.check(`${server.url}/required.glb`, 'model'), 'model', DEFAULT_BUDGETS)
    const used = judge(await check.check(`${server.url}/used.glb`, 'model'), 'model', DEFAULT_BUDGETS)
    expect(required.problems.filter((problem) => problem.code === 'unshown-extension')).toEqual([
      {
        severity: 'warning',
        code: 'unshown-extension',
        message:
          'The model requires EXT_lights_image_based, which the preview cannot show: it would not load there.',
      },
    ])
    expect(required.status).toBe('warning')
    expect(used.problems.filter((problem) => problem.code === 'unshown-extension')).toEqual([
      {
        severity: 'warning',
        code: 'unshown-extension',
        message:
          'The model uses KHR_materials_variants, which the preview does not show: it would look different there.',
      },
    ])
  })
})

describe('a .gltf and its external files', () => {
  it('fetches the buffer and the picture from beside the model, and counts them in', async () => {
    const server = await serve({
      '/models/textured.gltf': { body: gltfText(), type: 'model/gltf+json' },
      '/models/textured.bin': { body: fixture('external/textured.bin') },
      '/models/react.png': { body: fixture('external/react.png'), type: 'image/png' },
    })
    const outcome = await checker().check(`${server.url}/models/textured.gltf`, 'model')
    expect(outcome.problems).toEqual([])
    expect(outcome.facts).toMatchObject({
      class: 'model',
      format: 'gltf',
      externalFiles: 2,
      bytes:
        gltfText().length + fixture('external/textured.bin').length + fixture('external/react.png').length,
      triangles: 2,
      textures: [{ pointer: '/images/0', type: 'image/png', width: 512, height: 461 }],
    })
    expect(server.seen.map((request) => request.path)).toEqual([
      '/models/textured.gltf',
      '/models/textured.bin',
      '/models/react.png',
    ])
  })

  it('an external file on this computer, or not on the web, is refused and said, without asking for it', async () => {
    const local = await serve({ '/secret.bin': { body: fixture('external/textured.bin') } }, '127.0.0.1')
    const server = await serve({
      '/textured.gltf': {
        body: gltfNaming(`${local.url}/secret.bin`, ['file:///etc/passwd']),
        type: 'model/gltf+json',
      },
    })
    const outcome = await checker().check(`${server.url}/textured.gltf`, 'model')
    // (The validator warns too that the URIs are not relative: NON_RELATIVE_URI.)
    expect(outcome.problems.filter((problem) => problem.code === 'external-file')).toEqual([
      {
        severity: 'error',
        code: 'external-file',
        message: `The external file ${local.url}/secret.bin could not be loaded: Could not load ${local.url}/secret.bin: it points to 127.0.0.1, an address on this computer or a local network, which is not loaded unless allowed: turn on “Allow local addresses” in Settings to load it`,
      },
      {
        severity: 'error',
        code: 'external-file',
        message:
          'The external file file:///etc/passwd could not be loaded: Could not load file:///etc/passwd: only http and https addresses are loaded',
      },
    ])
    expect(local.seen).toEqual([])
  })

  it('a model naming more external files than allowed: those beyond are not asked for', async () => {
    const images = Array.from({ length: 40 }, (_, i) => `picture-${i}.png`)
    const files: Record<string, Served> = {
      '/many.gltf': { body: gltfNaming('textured.bin', images), type: 'model/gltf+json' },
      '/textured.bin': { body: fixture('external/textured.bin') },
    }
    for (const image of images) files[`/${image}`] = { body: fixture('external/react.png') }
    const server = await serve(files)
    const outcome = await checker().check(`${server.url}/many.gltf`, 'model')
    expect(server.seen).toHaveLength(1 + 32)
    expect(outcome.problems.filter((problem) => problem.code === 'external-file')).toHaveLength(41 - 32)
    expect(outcome.problems[0]!.message).toContain('a model may name at most 32 external files.')
  })

  it('a model and its files share one deadline: four times one file’s time', async () => {
    const images = Array.from({ length: 6 }, (_, i) => `picture-${i}.png`)
    const files: Record<string, Served> = {
      '/slow.gltf': { body: gltfNaming('textured.bin', images), type: 'model/gltf+json' },
      '/textured.bin': { body: fixture('external/textured.bin'), delayMs: 700 },
    }
    for (const image of images) files[`/${image}`] = { body: fixture('external/react.png'), delayMs: 700 }
    const server = await serve(files)
    // 1 s a file, so 4 s for the model and its files: 0.7 s each, the seventh is never asked for.
    const started = performance.now()
    const outcome = await checker({ timeoutMs: 1_000 }).check(`${server.url}/slow.gltf`, 'model')
    expect(performance.now() - started).toBeLessThan(5_500)
    expect(outcome.problems.find((problem) => problem.message.includes('picture-5.png'))).toEqual({
      severity: 'error',
      code: 'external-file',
      message:
        'The external file picture-5.png could not be loaded: the model and its files took longer than 4 seconds.',
    })
    expect(server.seen.map((request) => request.path)).not.toContain('/picture-5.png')
  }, 15_000)

  it('with a cache, the model and each external file are asked about again; one changed, the model is read again', async () => {
    const server = await serve({
      '/textured.gltf': { body: gltfText(), type: 'model/gltf+json' },
      '/textured.bin': { body: fixture('external/textured.bin') },
      '/react.png': { body: fixture('external/react.png'), type: 'image/png' },
    })
    const cache = memoryCache()
    const first = await checker({ cache }).check(`${server.url}/textured.gltf`, 'model')
    expect(cache.entries.size).toBe(1)

    server.seen.length = 0
    const again = checker({ cache })
    expect(await again.check(`${server.url}/textured.gltf`, 'model')).toEqual(first)
    expect(again.stats).toMatchObject({ asked: 1, unchanged: 1 })
    expect(server.seen.map((request) => [request.path, request.status])).toEqual([
      ['/textured.gltf', 304],
      ['/textured.bin', 304],
      ['/react.png', 304],
    ])

    server.set('/react.png', { body: 'not a picture any more' })
    server.seen.length = 0
    const changed = checker({ cache })
    const outcome = await changed.check(`${server.url}/textured.gltf`, 'model')
    expect(changed.stats.unchanged).toBe(0)
    // Asked about in turn until one changed, then the model read again whole.
    expect(server.seen.map((request) => [request.path, request.status])).toEqual([
      ['/textured.gltf', 304],
      ['/textured.bin', 304],
      ['/react.png', 200],
      ['/textured.gltf', 200],
      ['/textured.bin', 200],
      ['/react.png', 200],
    ])
    expect(outcome.problems.map((problem) => problem.code)).toContain('IMAGE_UNRECOGNIZED_FORMAT')
  })
})
