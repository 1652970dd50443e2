import { describe, expect, it } from 'vitest'
import {
  gatedFields,
  gatedMessages,
  heldBackLine,
  isGatedPath,
  optionalWords,
} from '#shared/sync/unfilled-fields.ts'
import { validateSku } from '#shared/validation/validate.ts'

/**
 * A field left empty is "missing" nowhere: a gate's field is "held back from sending" with the
 * gate's reason, any other "not filled (optional)", in the dry run, the editor and the list alike.
 */
describe('the words for a field left empty', () => {
  it('says a field nothing requires is not filled (optional), and leaves other messages as they are', () => {
    expect(optionalWords('Brand is missing')).toBe('Brand is not filled (optional)')
    expect(optionalWords('Asset ID of 3D asset 2 is missing')).toBe(
      'Asset ID of 3D asset 2 is not filled (optional)',
    )
    expect(optionalWords('Intensity must be a number, not the text "high"')).toBe(
      'Intensity must be a number, not the text "high"',
    )
    expect(heldBackLine('Category is empty; Sandbox requires it')).toBe(
      'Held back from sending: Category is empty; Sandbox requires it',
    )
  })

  it('knows which of the validator’s warnings a profile’s gates say instead, by path and by message', () => {
    const gated = gatedFields(['category', 'arEffect.effectAssets3D'])
    expect(gated).toEqual(['productName', 'barcode', 'category', 'arEffect.effectAssets3D'])
    // A section holding a required field is said by the hold too; a field nothing requires is not.
    expect(isGatedPath('category', gated)).toBe(true)
    expect(isGatedPath('arEffect', gated)).toBe(true)
    expect(isGatedPath('brand', gated)).toBe(false)
    expect(isGatedPath('arEffect.envSettings', gated)).toBe(false)
    const messages = gatedMessages(gated)
    const { warnings } = validateSku({ productName: 'Aviator' })
    expect(
      warnings.filter((warning) => messages.has(warning.message)).map((warning) => warning.path),
    ).toEqual(['category', 'barcode', 'arEffect'])
    // Only what the profile requires: with the default, the brand stays optional.
    expect(gatedMessages(gatedFields(['category'])).has('Brand is missing')).toBe(false)
  })
})
