import { isRecord } from '../is-record.ts'
import { getAt, setAt, type PathSegment } from '../json-path.ts'
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

/**
 * Sets `value` at `segments`, first giving every enclosing section the draft lacks the new-SKU
 * defaults of that section. Setting Intensity on a draft without an environment then makes the
 * template's environment with that intensity, not `{ intensity }` alone, whose other fields
 * would each be one more missing-field warning: an edit never leaves a draft with more problems
 * than it had. Sections the draft has are left as they are but for the one value.
 *
 * "Lacks" means what `setAt` would have to create: absent, or a value that is not a section
 * (null, text), which `setAt` replaces anyway. `undefined` removes the value and creates nothing.
 */
export function setWithSectionDefaults(
  payload: Record<string, unknown>,
  segments: readonly PathSegment[],
  value: unknown,
): void {
  if (value !== undefined) {
    const template = newSkuPayload()
    for (let depth = 1; depth < segments.length; depth++) {
      const enclosing = segments.slice(0, depth)
      if (isContainer(getAt(payload, enclosing))) continue
      const defaults = getAt(template, enclosing)
      if (isContainer(defaults)) setAt(payload, enclosing, structuredClone(defaults))
    }
  }
  setAt(payload, segments, value)
}

/** What a path can go on through: a section or a list. */
function isContainer(value: unknown): boolean {
  return typeof value === 'object' && value !== null
}

/**
 * Gives `sku` every value of the new-SKU template it lacks, in place: sections are merged key by
 * key, lists and single values are added only when absent. A value the SKU has is never
 * replaced, even null or one of the wrong type: that is for validation to report, not for a
 * default to hide. Returns the dotted paths filled, each at the highest level filled (a whole
 * absent section is one path, not one per field inside it), in the template's order.
 */
export function fillMissingDefaults(sku: Record<string, unknown>): string[] {
  const filled: string[] = []
  fillFrom(newSkuPayload(), sku, '', filled)
  return filled
}

function fillFrom(
  defaults: Record<string, unknown>,
  target: Record<string, unknown>,
  path: string,
  filled: string[],
): void {
  for (const [key, value] of Object.entries(defaults)) {
    const at = path ? `${path}.${key}` : key
    const present = target[key]
    if (present === undefined) {
      // The template is made afresh for each call: its values can be handed over as they are.
      target[key] = value
      filled.push(at)
    } else if (isRecord(value) && isRecord(present)) {
      fillFrom(value, present, at, filled)
    }
  }
}
