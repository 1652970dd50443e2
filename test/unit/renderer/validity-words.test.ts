import { describe, expect, it } from 'vitest'
import { optionalUnfilled, validityBadgeText, VALIDITY_LABELS } from '#renderer/words/validity.ts'

/** The list's badges and Checks filter, and the editor's count, say a field left empty is "not filled", never "missing". */
describe('a draft’s checks in words', () => {
  it('badges and labels say “not filled”, never “missing”', () => {
    expect(validityBadgeText('warnings', 0, 3)).toBe('3 not filled')
    expect(validityBadgeText('warnings', 0, 1234)).toBe('1,234 not filled')
    expect(validityBadgeText('invalid', 1, 3)).toBe('1 error')
    expect(validityBadgeText('valid', 0, 0)).toBe('Ready')
    expect(VALIDITY_LABELS.warnings).toBe('Fields not filled')
    expect(optionalUnfilled(1)).toBe('1 field not filled (optional)')
    expect(optionalUnfilled(2)).toBe('2 fields not filled (optional)')
  })
})
