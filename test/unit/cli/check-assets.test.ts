import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Document, NodeIO } from '@gltf-transform/core'
import { PNG } from 'pngjs'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { imageBytes, readContainer } from '#shared/asset-checks/gltf-container.ts'
import type { SkuAssetResult } from '#shared/asset-checks/results.ts'
import {
  markedGlb,
  nestedGltf,
  pmndrsModel,
  pmndrsTexture,
  serveAssets,
  type AssetServer,
  type Served,
} from '../asset-checks/asset-files.ts'
import { closedPort } from '../loopback-servers.ts'
import { runCli } from './run-cli.ts'

// check-assets against real files on a loopback web server: the CC0 Draco models of
// @pmndrs/assets (bunny, and pmndrs with its 2048×2048 JPEG texture), a GLB cut short, a web page
// served where a model should be, a 404 and a port nothing listens on. The server is on
// 127.0.0.1, this computer, so every run but the one about refusals passes --allow-local.

let scratch = ''
let servers: AssetServer[] = []
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'catalog-desk-check-assets-'))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()))
  servers = []
})

async function serve(files: Record<string, Served>): Promise<AssetServer> {
  const server = await serveAssets(files)
  servers.push(server)
  return server
}

let files = 0
/** A JSON list of SKUs in the scratch folder. */
async function skuFile(skus: unknown[]): Promise<string> {
  const file = join(scratch, `skus-${files++}.json`)
  await writeFile(file, JSON.stringify(skus))
  return file
}

const skuWithModel = (barcode: string, url: string) => ({
  barcode,
  productName: `Frame ${barcode}`,
  arEffect: { effectAssets3D: [{ id: 'frame', url }] },
})

interface Report {
  kind: string
  skus: number
  assets: number
  files: number
  unchanged?: number
  ok: number
  warnings: number
  errors: number
  budgets: Record<string, { recommended: number; maximum: number }>
  results: SkuAssetResult[]
}

async function checkJson(argv: string[]): Promise<{ code: number; report: Report; stderr: string }> {
  const run = await runCli(['check-assets', ...argv, '--json'])
  expect(run.stdout, run.stderr).toMatch(/^\{/)
  return { code: run.code, report: JSON.parse(run.stdout) as Report, stderr: run.stderr }
}

const html = '<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>Please sign in</body></html>\n'

describe('catalog-desk check-assets: the five kinds of model address', () => {
  it('reports ok for a Draco and a textured model, errors for a truncated GLB, an HTML page and dead addresses; exit 1', async () => {
    const bunny = await pmndrsModel('bunny')
    const textured = await pmndrsModel('pmndrs')
    const server = await serve({
      '/draco.glb': { body: bunny, type: 'model/gltf-binary' },
      '/textured.glb': { body: textured, type: 'model/gltf-binary' },
      '/truncated.glb': {
        body: textured.subarray(0, Math.floor(textured.length * 0.6)),
        type: 'model/gltf-binary',
      },
      '/page.glb': { body: html, type: 'text/html; charset=utf-8' },
    })
    const closed = `http://127.0.0.1:${await closedPort()}/gone.glb`
    const file = await skuFile([
      skuWithModel('1001', `${server.url}/draco.glb`),
      skuWithModel('1002', `${server.url}/textured.glb`),
      skuWithModel('1003', `${server.url}/truncated.glb`),
      skuWithModel('1004', `${server.url}/page.glb`),
      skuWithModel('1005', `${server.url}/missing.glb`),
      skuWithModel('1006', closed),
    ])

    const text = await runCli(['check-assets', file, '--allow-local'])
    expect(text.code).toBe(1)
    const blocks = text.stdout.trimEnd().split(/\n(?=\[)/)
    expect(blocks[0]).toBe(
      `[0] SKU 1001, arEffect.effectAssets3D.0.url: ${server.url}/draco.glb\n` +
        '  ok: GLB, 18.4 KB, 5,648 triangles, 1 draw call, KHR_draco_mesh_compression',
    )
    expect(blocks[1]).toBe(
      `[1] SKU 1002, arEffect.effectAssets3D.0.url: ${server.url}/textured.glb\n` +
        '  ok: GLB, 81.8 KB, 1,552 triangles, 1 draw call, 1 texture (2048×2048), KHR_draco_mesh_compression',
    )
    expect(blocks[2]).toContain(`[2] SKU 1003, arEffect.effectAssets3D.0.url: ${server.url}/truncated.glb\n`)
    expect(blocks[2]).toContain(
      '  error: Unexpected end of chunk data. (at byte 50246) [GLB_UNEXPECTED_END_OF_CHUNK_DATA]',
    )
    expect(blocks[3]).toBe(
      `[3] SKU 1004, arEffect.effectAssets3D.0.url: ${server.url}/page.glb\n` +
        '  error: It is a web page (HTML), not a glTF model. [web-page]',
    )
    expect(blocks[4]).toBe(
      `[4] SKU 1005, arEffect.effectAssets3D.0.url: ${server.url}/missing.glb\n` +
        `  error: Could not load ${server.url}/missing.glb: the server answered HTTP 404 (Not Found) [unreachable]`,
    )
    expect(blocks[5]).toContain(`[5] SKU 1006, arEffect.effectAssets3D.0.url: ${closed}\n`)
    expect(blocks[5]).toContain(
      `  error: Could not load ${closed}: no connection, the server refused it (ECONNREFUSED)`,
    )
    expect(blocks[6]).toBeUndefined()
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe(
      '6 SKUs read, 6 assets named (6 distinct files): 2 ok, 0 with warnings, 4 with errors',
    )

    const { code, report } = await checkJson([file, '--allow-local'])
    expect(code).toBe(1)
    expect(report.results.map((result) => result.status)).toEqual([
      'ok',
      'ok',
      'error',
      'error',
      'error',
      'error',
    ])
  })

  it('exits 0 when every asset is ok or only warned about', async () => {
    const server = await serve({ '/draco.glb': { body: await pmndrsModel('bunny') } })
    const run = await runCli([
      'check-assets',
      await skuFile([skuWithModel('1', `${server.url}/draco.glb`)]),
      '--allow-local',
    ])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('1 ok, 0 with warnings, 0 with errors')
  })

  it('refuses a local address without --allow-local, naming it and the flag', async () => {
    const server = await serve({ '/draco.glb': { body: await pmndrsModel('bunny') } })
    const run = await runCli(['check-assets', await skuFile([skuWithModel('1', `${server.url}/draco.glb`)])])
    expect(run.code).toBe(1)
    expect(run.stdout).toContain(
      `  error: Could not load ${server.url}/draco.glb: it points to 127.0.0.1, an address on this computer or a local network, which is not loaded unless allowed: run with --allow-local to check it [refused-address]`,
    )
    // Nothing was asked of the server.
    expect(server.seen).toEqual([])
  })
})

describe('a model the glTF-Validator cannot be given', () => {
  it('a .gltf nested 20,000 deep is an error line of its own; the report and the cache hold the rest', async () => {
    const server = await serve({
      '/deep.gltf': { body: nestedGltf(20_000), type: 'model/gltf+json' },
      '/draco.glb': { body: await pmndrsModel('bunny'), type: 'model/gltf-binary' },
    })
    const file = await skuFile([
      skuWithModel('4001', `${server.url}/deep.gltf`),
      skuWithModel('4002', `${server.url}/draco.glb`),
    ])
    const cache = join(scratch, 'deep.cache')

    const run = await runCli(['check-assets', file, '--allow-local', '--cache', cache])
    expect(run.code).toBe(1)
    expect(run.stdout.trimEnd().split(/\n(?=\[)/)).toEqual([
      `[0] SKU 4001, arEffect.effectAssets3D.0.url: ${server.url}/deep.gltf\n` +
        '  error: Its JSON nests objects or lists more than 100 levels deep, which no glTF model needs; the glTF-Validator does not read it. [too-deep]',
      `[1] SKU 4002, arEffect.effectAssets3D.0.url: ${server.url}/draco.glb\n` +
        '  ok: GLB, 18.4 KB, 5,648 triangles, 1 draw call, KHR_draco_mesh_compression\n' +
        '2 SKUs read, 2 assets named (2 distinct files, 0 unchanged since the cache): 1 ok, 0 with warnings, 1 with errors',
    ])

    // The cache was written, with both: the next run asks each server whether its file changed.
    server.seen.length = 0
    const again = await checkJson([file, '--allow-local', '--cache', cache])
    expect(again.report).toMatchObject({ files: 2, unchanged: 2, ok: 1, errors: 1 })
    expect(server.seen.map((request) => request.status)).toEqual([304, 304])
    expect(again.report.results[0]!.problems).toEqual([
      expect.objectContaining({ severity: 'error', code: 'too-deep' }),
    ])
  })

  it('one nested 100 deep is read by the validator as any other', async () => {
    const server = await serve({ '/deep.gltf': { body: nestedGltf(99), type: 'model/gltf+json' } })
    const { report } = await checkJson([
      await skuFile([skuWithModel('4003', `${server.url}/deep.gltf`)]),
      '--allow-local',
    ])
    expect(report.results[0]!.problems.map((problem) => problem.code)).not.toContain('too-deep')
    expect(report.results[0]).toMatchObject({ facts: { format: 'gltf' } })
  })
})

describe('fetch once', () => {
  it('1,000 SKUs sharing 20 models: 20 requests; a second run with the cache: 20 conditional requests answered 304, the same results', async () => {
    const bunny = await pmndrsModel('bunny')
    const models: Record<string, Served> = {}
    for (let i = 0; i < 20; i++)
      models[`/m${i}.glb`] = { body: markedGlb(bunny, { copy: i }), type: 'model/gltf-binary' }
    const server = await serve(models)
    // Spelled differently now and then: one address is one file.
    const address = (i: number) =>
      i % 7 === 0
        ? `${server.url.replace('http', 'HTTP')}/./m${i % 20}.glb#top`
        : `${server.url}/m${i % 20}.glb`
    const file = await skuFile(
      Array.from({ length: 1000 }, (_, i) => skuWithModel(String(100000 + i), address(i))),
    )
    const cache = join(scratch, 'fetch-once.cache')

    const first = await checkJson([file, '--allow-local', '--cache', cache, '--concurrency', '8'])
    expect(first.code).toBe(0)
    expect(first.report).toMatchObject({
      skus: 1000,
      assets: 1000,
      files: 20,
      unchanged: 0,
      ok: 1000,
      errors: 0,
    })
    expect(server.seen).toHaveLength(20)
    expect(new Set(server.seen.map((request) => request.path)).size).toBe(20)
    expect(server.seen.every((request) => request.status === 200 && !request.headers['if-none-match'])).toBe(
      true,
    )

    server.seen.length = 0
    const second = await checkJson([file, '--allow-local', '--cache', cache])
    expect(server.seen).toHaveLength(20)
    expect(server.seen.every((request) => request.status === 304 && request.headers['if-none-match'])).toBe(
      true,
    )
    expect(second.report).toMatchObject({ files: 20, unchanged: 20, ok: 1000 })
    expect(second.report.results).toEqual(first.report.results)

    // A file that changed is downloaded and checked again; the others stay unchanged.
    server.set('/m3.glb', {
      body: (await pmndrsModel('pmndrs')).subarray(0, 40_000),
      type: 'model/gltf-binary',
    })
    server.seen.length = 0
    const third = await checkJson([file, '--allow-local', '--cache', cache])
    expect(server.seen.filter((request) => request.status === 200).map((request) => request.path)).toEqual([
      '/m3.glb',
    ])
    expect(third.report).toMatchObject({ unchanged: 19, errors: 50, ok: 950 })
  })

  it('refuses a --cache file that is not its own, and leaves it as it was', async () => {
    const other = join(scratch, 'notes.txt')
    await writeFile(other, 'my notes\n')
    const run = await runCli(['check-assets', await skuFile([]), '--cache', other])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`${other} is not a check-assets cache`)
    expect(await readFile(other, 'utf8')).toBe('my notes\n')
  })
})

/** A GLB of one textured triangle whose texture is `png`. */
async function texturedGlb(png: Uint8Array): Promise<Uint8Array> {
  const document = new Document()
  const buffer = document.createBuffer()
  const position = document
    .createAccessor()
    .setType('VEC3')
    .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]))
    .setBuffer(buffer)
  const uv = document
    .createAccessor()
    .setType('VEC2')
    .setArray(new Float32Array([0, 0, 1, 0, 0, 1]))
    .setBuffer(buffer)
  const texture = document.createTexture('wide').setImage(png).setMimeType('image/png')
  const material = document.createMaterial('wide').setBaseColorTexture(texture)
  const primitive = document
    .createPrimitive()
    .setAttribute('POSITION', position)
    .setAttribute('TEXCOORD_0', uv)
    .setMaterial(material)
  const mesh = document.createMesh().addPrimitive(primitive)
  const node = document.createNode().setMesh(mesh)
  document.createScene().addChild(node)
  return new NodeIO().writeBinary(document)
}

function pngOf(width: number, height: number): Uint8Array {
  const png = new PNG({ width, height })
  png.data.fill(200)
  return new Uint8Array(PNG.sync.write(png))
}

describe('budgets', () => {
  it('a model over the size budget and a texture over the texture-size budget: the problem names the figure and the budget', async () => {
    const bunny = await pmndrsModel('bunny')
    const server = await serve({
      // 16 MB of JSON padding: over the recommended 15 MB, under the maximum of 50 MB.
      '/heavy.glb': { body: markedGlb(bunny, { heavy: true }, 16 * 1024 * 1024), type: 'model/gltf-binary' },
      '/wide.glb': { body: await texturedGlb(pngOf(8192, 4)), type: 'model/gltf-binary' },
      '/fine.glb': { body: await texturedGlb(pngOf(2048, 2048)), type: 'model/gltf-binary' },
    })
    const file = await skuFile([
      skuWithModel('heavy', `${server.url}/heavy.glb`),
      skuWithModel('wide', `${server.url}/wide.glb`),
      skuWithModel('fine', `${server.url}/fine.glb`),
    ])
    const { code, report } = await checkJson([file, '--allow-local'])
    expect(code).toBe(1)
    const [heavy, wide, fine] = report.results
    expect(heavy).toMatchObject({
      status: 'warning',
      problems: [
        {
          severity: 'warning',
          code: 'over-budget-model-size',
          message: 'The model is 16 MB, over the recommended 15 MB.',
        },
      ],
    })
    expect(wide).toMatchObject({
      status: 'error',
      problems: [
        {
          severity: 'error',
          code: 'over-budget-texture-size',
          message: 'The texture /images/0 is 8192×4 pixels, over the maximum of 4,096 pixels a side.',
        },
      ],
    })
    expect(fine).toMatchObject({ status: 'ok', problems: [] })
  })

  it('takes budgets of its own from --budgets, and refuses one that cannot be right', async () => {
    const server = await serve({
      '/bunny.glb': { body: await pmndrsModel('bunny') },
      '/suzi.glb': { body: await pmndrsModel('suzi') },
      '/pmndrs.glb': { body: await pmndrsModel('pmndrs') },
    })
    const budgets = join(scratch, 'budgets.json')
    await writeFile(budgets, JSON.stringify({ modelBytes: { recommended: 20_000, maximum: 50_000 } }))
    const file = await skuFile(
      ['bunny', 'suzi', 'pmndrs'].map((name) => skuWithModel(name, `${server.url}/${name}.glb`)),
    )
    const { code, report } = await checkJson([file, '--allow-local', '--budgets', budgets])
    expect(code).toBe(1)
    expect(report.budgets.modelBytes).toEqual({ recommended: 20_000, maximum: 50_000 })
    expect(report.budgets.triangles).toEqual({ recommended: 100_000, maximum: 500_000 })
    expect(
      report.results.map((result) => [result.status, result.problems.map((problem) => problem.message)]),
    ).toEqual([
      ['ok', []],
      ['warning', ['The model is 30.6 KB, over the recommended 19.5 KB.']],
      ['error', ['The model is 81.8 KB, over the maximum of 48.8 KB: it was not downloaded.']],
    ])

    await writeFile(
      budgets,
      JSON.stringify({ modelBytes: { recommended: 60_000, maximum: 50_000 }, polygons: 3 }),
    )
    const refused = await runCli(['check-assets', file, '--budgets', budgets])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('"polygons" is not a budget')
    expect(refused.stderr).toContain(
      'Model size (bytes) (modelBytes): the recommended 60000 is above the maximum 50000.',
    )
  })
})

describe('pictures', () => {
  it('reads the type from the bytes and the pixel size of PNG, JPEG, WebP and GIF; a web page is an error', async () => {
    const textured = await pmndrsModel('pmndrs')
    const jpeg = imageBytes(readContainer(textured)!, () => undefined)[0]!
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')
    const server = await serve({
      // Served as octet-stream or with a wrong type: the bytes decide.
      '/photo.png': { body: pngOf(300, 200), type: 'application/octet-stream' },
      '/photo.jpg': { body: jpeg, type: 'image/png' },
      '/sticker': { body: await pmndrsTexture('react') },
      '/dot.gif': { body: gif, type: 'image/gif' },
      '/env.png': { body: html, type: 'text/html' },
    })
    const file = await skuFile([
      {
        barcode: 'pictures',
        productImage: `${server.url}/photo.png`,
        arEffect: {
          envSettings: { environmentImage: `${server.url}/env.png` },
          effectAssets2D: [
            `${server.url}/photo.jpg`,
            null,
            { url: `${server.url}/sticker` },
            { image: `${server.url}/dot.gif` },
            null,
            null,
            null,
          ],
        },
      },
    ])
    const { code, report } = await checkJson([file, '--allow-local'])
    expect(code).toBe(1)
    const seen = report.results.map(({ field, status, facts, problems }) => ({
      field,
      status,
      facts: facts?.class === 'picture' ? [facts.type, facts.width, facts.height] : undefined,
      problems: problems.map((problem) => problem.code),
    }))
    expect(seen).toEqual([
      { field: 'productImage', status: 'ok', facts: ['image/png', 300, 200], problems: [] },
      {
        field: 'arEffect.envSettings.environmentImage',
        status: 'error',
        facts: ['text/html', undefined, undefined],
        problems: ['web-page'],
      },
      { field: 'arEffect.effectAssets2D.0', status: 'ok', facts: ['image/jpeg', 2048, 2048], problems: [] },
      { field: 'arEffect.effectAssets2D.2.url', status: 'ok', facts: ['image/webp', 512, 461], problems: [] },
      { field: 'arEffect.effectAssets2D.3.image', status: 'ok', facts: ['image/gif', 1, 1], problems: [] },
    ])
    expect(report.results[1]!.problems[0]!.message).toBe('It is a web page (HTML), not a picture.')
  })
})

describe('output', () => {
  it('--json: counts, budgets and one result per SKU and asset, with the SKU, field and address', async () => {
    const server = await serve({ '/draco.glb': { body: await pmndrsModel('bunny') } })
    const model = `${server.url}/draco.glb`
    const file = await skuFile([
      { ...skuWithModel('2001', model), productImage: `${server.url}/none.png` },
      skuWithModel('', model),
      { productName: 'No assets' },
    ])
    const { code, report } = await checkJson([file, '--allow-local'])
    expect(code).toBe(1)
    expect(Object.keys(report)).toEqual([
      'kind',
      'skus',
      'assets',
      'files',
      'ok',
      'warnings',
      'errors',
      'budgets',
      'results',
    ])
    expect(report).toMatchObject({
      kind: 'sku-list',
      skus: 3,
      assets: 3,
      files: 2,
      ok: 2,
      warnings: 0,
      errors: 1,
    })
    expect(report.results[0]).toEqual({
      index: 0,
      sku: '2001',
      field: 'productImage',
      url: `${server.url}/none.png`,
      kind: 'product-image',
      status: 'error',
      problems: [
        {
          severity: 'error',
          code: 'unreachable',
          message: `Could not load ${server.url}/none.png: the server answered HTTP 404 (Not Found)`,
        },
      ],
    })
    expect(report.results[1]).toMatchObject({
      index: 0,
      sku: '2001',
      field: 'arEffect.effectAssets3D.0.url',
      url: model,
      kind: 'model',
      status: 'ok',
      problems: [],
      facts: { class: 'model', format: 'glb', bytes: 18808, triangles: 5648, drawCalls: 1, textures: [] },
    })
    // A SKU without a barcode is named by its product name.
    expect(report.results[2]).toMatchObject({ index: 1, sku: 'Frame ' })
  })

  it('names a sheet’s SKUs by the line a spreadsheet shows them on', async () => {
    const server = await serve({ '/draco.glb': { body: await pmndrsModel('bunny') } })
    const sheet = join(scratch, 'skus.csv')
    await writeFile(
      sheet,
      `barcode,productName,arEffect.effectAssets3D.0.url\n3001,Round,${server.url}/draco.glb\n3002,Square,\n`,
    )
    const run = await runCli(['check-assets', sheet, '--allow-local'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(
      `line 2 SKU 3001, arEffect.effectAssets3D.0.url: ${server.url}/draco.glb\n  ok: GLB`,
    )
    expect(run.stdout).toContain(
      '2 SKUs read, 1 asset named (1 distinct file): 1 ok, 0 with warnings, 0 with errors; 1 SKU name no asset',
    )
  })

  it('usage errors exit 2 as the other commands do', async () => {
    expect(await runCli(['check-assets'])).toMatchObject({ code: 2 })
    const run = await runCli(['check-assets', 'x.json', '--concurrency', '0'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('--concurrency must be a whole number from 1 to 16, not "0".')
    expect(run.stderr).toContain('Run "catalog-desk check-assets --help" for usage.')
    const app = await runCli(['check-assets', 'test/fixtures/app-create-request.json'])
    expect(app.code).toBe(2)
    expect(app.stderr).toContain('holds an app creation request')
    const help = await runCli(['help', 'check-assets'])
    expect(help.stdout).toContain('Usage: catalog-desk check-assets FILE')
  })
})
