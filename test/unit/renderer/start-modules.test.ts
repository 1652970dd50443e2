import 'fake-indexeddb/auto'
import { describe, expect, it, vi } from 'vitest'

// The contract's schemas, watched: the window's start must load their modules without building them.
vi.mock('#shared/schema/sku.ts', async (original) => {
  const real = await original<typeof import('#shared/schema/sku.ts')>()
  return { ...real, skuSchema: vi.fn(real.skuSchema) }
})
vi.mock('#shared/schema/app.ts', async (original) => {
  const real = await original<typeof import('#shared/schema/app.ts')>()
  return { ...real, appCreateRequestSchema: vi.fn(real.appCreateRequestSchema) }
})

describe("the window's start", () => {
  it('loads the checks and the whole database layer without building the contract’s schemas (issue #37)', async () => {
    const { skuSchema } = await import('#shared/schema/sku.ts')
    const { appCreateRequestSchema } = await import('#shared/schema/app.ts')
    await import('#renderer/start-checks.ts')
    await import('#renderer/stores/sku-drafts.ts')
    expect(skuSchema).not.toHaveBeenCalled()
    expect(appCreateRequestSchema).not.toHaveBeenCalled()
    // They are built when first used, and then they are the contract's.
    const { validateSku } = await import('#shared/validation/validate.ts')
    expect(validateSku({ productName: 'Aviator' }).errors).toEqual([])
    expect(skuSchema).toHaveBeenCalled()
  })
})
