import { afterEach, describe, expect, it, vi } from 'vitest'
import { createHandlers } from '#main/handlers/index.ts'
import type { HandlerDeps } from '#main/handlers/types.ts'
import { createDispatcher } from '#main/ipc-dispatch.ts'
import { DEFAULT_BUDGETS, type AssetBudgets } from '#shared/asset-checks/budgets.ts'
import type { LocalSettings } from '#shared/ipc.ts'
import { nestedGltf, pmndrsModel, serveAssets, type AssetServer } from '../asset-checks/asset-files.ts'
import { serviceDeps } from './service-deps.ts'

// Settings › Asset budgets through the contract: what main takes (validated by the dispatcher, as
// every call from the page is), keeps, gives back, and judges the next "Check assets" by.

function setup() {
  const deps = {
    ...serviceDeps(),
    appInfo: vi.fn<HandlerDeps['appInfo']>(),
    openExternal: vi.fn<HandlerDeps['openExternal']>(),
  }
  const dispatch = createDispatcher(createHandlers(deps))
  return { deps, dispatch }
}

const triangles = { recommended: 1, maximum: 200_000 }
const budgetsOf = (settings: unknown) => (settings as LocalSettings).assetBudgets

describe('setAssetBudgets', () => {
  it('keeps the budgets it is given and gives them back with the other local settings', async () => {
    const { deps, dispatch } = setup()
    expect(budgetsOf(await dispatch('getLocalSettings', []))).toEqual(DEFAULT_BUDGETS)
    const budgets: AssetBudgets = { ...structuredClone(DEFAULT_BUDGETS), triangles }
    const answer = (await dispatch('setAssetBudgets', [budgets])) as LocalSettings
    expect(answer).toMatchObject({
      allowLocalAddresses: false,
      assetBudgets: budgets,
      sandbox: { running: true },
    })
    expect(budgetsOf(await dispatch('getLocalSettings', []))).toEqual(budgets)
    expect(deps.preferences.current().assetBudgets).toEqual(budgets)

    // Restoring the defaults is saving them.
    await dispatch('setAssetBudgets', [DEFAULT_BUDGETS])
    expect(budgetsOf(await dispatch('getLocalSettings', []))).toEqual(DEFAULT_BUDGETS)
  })

  it('reads the budgets as a stored file is: one left out takes its default', async () => {
    const { dispatch } = setup()
    await dispatch('setAssetBudgets', [{ triangles }])
    expect(budgetsOf(await dispatch('getLocalSettings', []))).toEqual({ ...DEFAULT_BUDGETS, triangles })
  })

  it.each([
    [
      'a maximum below the recommended',
      { triangles: { recommended: 500, maximum: 100 } },
      'argument 1: Triangles a model (triangles): the recommended 500 is above the maximum 100.',
    ],
    [
      'a figure that is not a whole number',
      { drawCalls: { recommended: 2.5, maximum: 100 } },
      'Draw calls a model (drawCalls.recommended) must be a whole number of at least 1, not 2.5.',
    ],
    [
      'a figure below 1',
      { textureSize: { recommended: 0, maximum: 4096 } },
      'Texture size (pixels, longer side) (textureSize.recommended) must be a whole number of at least 1',
    ],
    ['a budget that does not exist', { polygons: triangles }, '"polygons" is not a budget'],
    [
      'a figure in words',
      { modelBytes: { recommended: '15 MB', maximum: 50 } },
      'argument 1.modelBytes.recommended',
    ],
    ['a figure missing', { modelBytes: { maximum: 50 } }, 'argument 1.modelBytes.recommended'],
    [
      'a part that does not exist',
      { modelBytes: { ...DEFAULT_BUDGETS.modelBytes, minimum: 1 } },
      'argument 1.modelBytes',
    ],
    ['not an object', 'budgets', 'argument 1'],
    ['nothing', undefined, 'invalid arguments'],
  ])('refuses %s before the handler runs, naming what is wrong', async (_case, budgets, message) => {
    const { deps, dispatch } = setup()
    const args = budgets === undefined ? [] : [budgets]
    const refused = await dispatch('setAssetBudgets', args).catch((error: unknown) => error as Error)
    expect(refused).toBeInstanceOf(Error)
    expect((refused as Error).message).toMatch(/^IPC setAssetBudgets: invalid arguments/)
    expect((refused as Error).message).toContain(message)
    expect(deps.preferences.current().assetBudgets).toEqual(DEFAULT_BUDGETS)
  })

  it('never repeats a value that is not a number in its message', async () => {
    const { dispatch } = setup()
    const secret = `token-${crypto.randomUUID()}`
    const refused = (await dispatch('setAssetBudgets', [
      { triangles: { recommended: secret, maximum: 5 } },
    ]).catch((error: unknown) => error)) as Error
    expect(refused.message).not.toContain(secret)
  })
})

describe('checkAssets', () => {
  let server: AssetServer | undefined
  afterEach(() => server?.close())

  it('judges by the budgets of the moment: a change counts from the next check', async () => {
    const { deps, dispatch } = setup()
    server = await serveAssets({
      '/suzi.glb': { body: await pmndrsModel('suzi'), type: 'model/gltf-binary' },
    })
    await deps.preferences.update({ allowLocalAddresses: true })
    const refs = [{ field: 'arEffect.effectAssets3D.0.url', url: `${server.url}/suzi.glb`, kind: 'model' }]

    const [before] = (await dispatch('checkAssets', [refs])) as {
      status: string
      problems: { code: string }[]
    }[]
    expect(before).toMatchObject({ status: 'ok', problems: [] })

    await dispatch('setAssetBudgets', [{ triangles }])
    const [after] = (await dispatch('checkAssets', [refs])) as (typeof before)[]
    expect(after!.status).toBe('warning')
    expect(after!.problems).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'over-budget-triangles',
        message: expect.stringMatching(/^The model has [\d,]+ triangles, over the recommended 1\.$/),
      }),
    ])
  })

  it('a .gltf nested 20,000 deep is an error for that model; the thread goes on with the model read beside it', async () => {
    const { deps, dispatch } = setup()
    server = await serveAssets({
      '/deep.gltf': { body: nestedGltf(20_000), type: 'model/gltf+json' },
      '/suzi.glb': { body: await pmndrsModel('suzi'), type: 'model/gltf-binary' },
    })
    await deps.preferences.update({ allowLocalAddresses: true })
    const refs = ['deep.gltf', 'suzi.glb'].map((name) => ({
      field: 'arEffect.effectAssets3D.0.url',
      url: `${server!.url}/${name}`,
      kind: 'model',
    }))
    const [deep, suzi] = (await dispatch('checkAssets', [refs])) as {
      status: string
      problems: { severity: string; code: string; message: string }[]
    }[]
    expect(deep).toMatchObject({
      status: 'error',
      problems: [
        {
          severity: 'error',
          code: 'too-deep',
          message:
            'Its JSON nests objects or lists more than 100 levels deep, which no glTF model needs; the glTF-Validator does not read it.',
        },
      ],
    })
    expect(suzi).toMatchObject({ status: 'ok', problems: [] })
  })
})
