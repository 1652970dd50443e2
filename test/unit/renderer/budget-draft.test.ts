import { describe, expect, it } from 'vitest'
import { DEFAULT_BUDGETS, validateBudgets, type AssetBudgets } from '#shared/asset-checks/budgets.ts'
import {
  BUDGET_ROWS,
  changedBudgets,
  draftOf,
  draftProblems,
  figuresOf,
} from '#renderer/features/settings/budget-draft.ts'

const MB = 1024 * 1024
const defaults = (): AssetBudgets => structuredClone(DEFAULT_BUDGETS)

describe('the asset budgets as Settings edits them', () => {
  it('lists every budget with its title in the unit typed and its defaults in words', () => {
    expect(BUDGET_ROWS.map((row) => [row.title, row.defaults])).toEqual([
      ['Model size (MB)', '15 MB recommended, 50 MB maximum'],
      ['Triangles a model', '100,000 recommended, 500,000 maximum'],
      ['Draw calls a model', '10 recommended, 100 maximum'],
      ['Texture size (pixels, longer side)', '2,048 recommended, 4,096 maximum'],
      ['Picture size (MB)', '5 MB recommended, 20 MB maximum'],
      ['Picture size (pixels, longer side)', '4,096 recommended, 8,192 maximum'],
    ])
  })

  it('types byte budgets in MB and gives them back in bytes', () => {
    const draft = draftOf(defaults())
    expect(draft.modelBytes).toEqual({ recommended: 15, maximum: 50 })
    expect(draft.triangles).toEqual({ recommended: 100_000, maximum: 500_000 })
    draft.modelBytes.recommended = 2.5
    const figures = figuresOf(draft, defaults())
    expect(figures.modelBytes).toEqual({ recommended: 2.5 * MB, maximum: 50 * MB })
    expect(validateBudgets(figures).budgets).toEqual(figures)
    expect(changedBudgets(figures, defaults())).toEqual(['Model size (MB)'])
  })

  it('keeps a saved figure shown rounded exactly as it was, unless it is typed again', () => {
    const saved = { ...defaults(), modelBytes: { recommended: 1_000_000, maximum: 50 * MB } }
    const draft = draftOf(saved)
    expect(draft.modelBytes.recommended).toBe(0.954)
    expect(figuresOf(draft, saved)).toEqual(saved)
    expect(changedBudgets(figuresOf(draft, saved), saved)).toEqual([])
    draft.modelBytes.recommended = 1
    expect(figuresOf(draft, saved).modelBytes.recommended).toBe(MB)
  })

  it.each([
    ['triangles', 'maximum', 50_000, 'Triangles a model: the maximum is below the recommended.'],
    ['triangles', 'recommended', '', 'Triangles a model: the recommended figure is missing.'],
    [
      'drawCalls',
      'recommended',
      2.5,
      'Draw calls a model: the recommended must be a whole number of at least 1.',
    ],
    [
      'textureSize',
      'maximum',
      0,
      'Texture size (pixels, longer side): the maximum must be a whole number of at least 1.',
    ],
    ['modelBytes', 'recommended', 0, 'Model size (MB): the recommended must be more than 0 MB.'],
    ['pictureBytes', 'maximum', 4, 'Picture size (MB): the maximum is below the recommended.'],
    ['pictureSize', 'maximum', 1e300, 'Picture size (pixels, longer side): the maximum is too large.'],
    // A slip of a zero or two: the maximum is also how much a check downloads.
    [
      'modelBytes',
      'maximum',
      5000,
      'Model size (MB): the maximum can be at most 200 MB, the most a check downloads.',
    ],
  ] as const)('%s with the %s %s: "%s"', (name, part, typed, message) => {
    const draft = draftOf(defaults())
    draft[name][part] = typed
    const problems = draftProblems(figuresOf(draft, defaults()))
    expect([...problems]).toEqual([[name, message]])
  })

  it('finds nothing wrong with the defaults, and a budget whose figures are equal is fine', () => {
    const draft = draftOf(defaults())
    draft.drawCalls = { recommended: 20, maximum: 20 }
    expect(draftProblems(figuresOf(draft, defaults())).size).toBe(0)
  })
})
