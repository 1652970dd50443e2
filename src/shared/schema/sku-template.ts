import { EFFECT_ASSETS_2D_SLOTS, type Sku } from './sku.ts'

/**
 * The payload of a new SKU draft. It fills only the structure a person would otherwise have to type
 * by hand (zero transform, seven empty 2D slots) and the neutral environment of the contract's own
 * example; everything that describes the product starts absent, so the missing-field warnings
 * show what is left to fill in.
 */
export function newSkuPayload(): Sku {
  return {
    orgId: '',
    status: 'DRAFT',
    isActive: false,
    actionUrl: '',
    version: '1.0.0',
    arEffect: {
      transform: {
        position: { x: 0, y: 0, z: 0 },
        rotation: { x: 0, y: 0, z: 0 },
      },
      envSettings: {
        tileX: 1,
        tileY: 1,
        intensity: 1,
        toneMapping: 'neutral',
        shadowSoftness: 1,
        shadowIntensity: 0,
      },
      effectAssets2D: Array.from({ length: EFFECT_ASSETS_2D_SLOTS }, () => null),
      effectAssets3D: [],
    },
    meta: {},
  }
}
