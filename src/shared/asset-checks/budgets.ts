import { formatBytes } from '../byte-size.ts'
import { isRecord } from '../is-record.ts'
import type { AssetFacts, AssetProblem } from './results.ts'

/**
 * How large an asset may be before the checks say so: for each measure a recommended figure (over
 * it: a warning; the asset works, but slowly or not on every phone) and a maximum (over it: an
 * error; it should not be sent as it is). A plain object, so Settings can store and edit it;
 * `validateBudgets` reads one back, filling what it lacks with the defaults.
 *
 * Where the defaults come from (the platforms publish recommendations, rarely hard limits; where a
 * figure is our own choice it says so):
 *
 * - Model size, 15 MB recommended: Shopify's "3D modeling checklist for Shopify Partners"
 *   (help.shopify.com/en/partners/resources/creating-media/3d-models/creating-3d-models/3d-modeling-checklist):
 *   "In general, model file size should be less than 15 MB. 3D models are typically about 4 MB."
 *   Others are stricter: Google's Scene Viewer recommended 10 MB (its limits as shown in Google
 *   I/O 2019's "What's new in ARCore": "Model size: 10 MB (bigger models may result in poor user
 *   experience)"), Meta's 3D posts required under 3 MB (developers.facebook.com/docs/sharing/3d-posts/asset-requirements),
 *   a Snapchat lens must be under 8 MB whole (developers.snap.com/lens-studio/publishing/optimization/texture-optimization).
 *   Maximum 50 MB: our own choice, the most the app's preview downloads (DEFAULT_MAX_PREVIEW_BYTES),
 *   so a larger model cannot even be previewed.
 * - Triangles, 100,000 recommended: Apple's AR Quick Look (WWDC 2018, "Integrating Apps and Content
 *   with AR Quick Look": 100K polygons and one set of 2048×2048 textures; "still what we
 *   recommend", Apple on developer.apple.com/forums/thread/693867, for every device down to the
 *   iPhone 7). Maximum 500,000: our own choice (five times the recommendation).
 * - Draw calls, 10 recommended: Scene Viewer's "Number of materials: 10" (the I/O 2019 list
 *   above); glTF draws each mesh primitive, with its one material, in a call of its own. Shopify
 *   asks for one material a model. Maximum 100: our own choice.
 * - Texture size (the longer side, in pixels), 2048 recommended: Apple (above) and Scene Viewer
 *   ("Max texture resolution: 2048 × 2048", same list). Maximum 4096: Meta's 3D posts took
 *   textures "under 4,096 pixels" a side; also the largest texture phones' WebGL reliably takes
 *   (our reading, not a published figure).
 * - Pictures (product photo, environment, 2D assets): no AR platform publishes figures for them.
 *   Our own choices: 5 MB and 4096 pixels a side recommended (4096 × 2048 is a usual
 *   equirectangular environment; a product photo needs less), 20 MB and 8192 a side at most (an
 *   8192 × 8192 picture is 256 MB once decoded). Shopify's upload limit for product images is
 *   20 MB, as several guides report it.
 */

export type BudgetName =
  'modelBytes' | 'triangles' | 'drawCalls' | 'textureSize' | 'pictureBytes' | 'pictureSize'

export interface Budget {
  /** Over it: a warning. */
  recommended: number
  /** Over it: an error. Never below `recommended`. */
  maximum: number
}

export type AssetBudgets = Record<BudgetName, Budget>

const MB = 1024 * 1024

export const DEFAULT_BUDGETS: Readonly<AssetBudgets> = Object.freeze({
  modelBytes: { recommended: 15 * MB, maximum: 50 * MB },
  triangles: { recommended: 100_000, maximum: 500_000 },
  drawCalls: { recommended: 10, maximum: 100 },
  textureSize: { recommended: 2048, maximum: 4096 },
  pictureBytes: { recommended: 5 * MB, maximum: 20 * MB },
  pictureSize: { recommended: 4096, maximum: 8192 },
})

/**
 * The most a size budget's maximum may be set to: it is also how much a check downloads and holds
 * in memory before giving up on a file (main's, or the CLI's), so a typo of a few zeros must not
 * make it gigabytes. Four times the defaults' maxima; the other budgets count what a file holds
 * and cost nothing to raise.
 */
export const BUDGET_CEILINGS: Readonly<Partial<Record<BudgetName, number>>> = {
  modelBytes: 200 * MB,
  pictureBytes: 80 * MB,
}

/** Each budget in words (Settings' labels, and the messages of a budget that cannot be read). */
export const BUDGET_TITLES: Readonly<Record<BudgetName, string>> = {
  modelBytes: 'Model size (bytes)',
  triangles: 'Triangles a model',
  drawCalls: 'Draw calls a model',
  textureSize: 'Texture size (pixels, longer side)',
  pictureBytes: 'Picture size (bytes)',
  pictureSize: 'Picture size (pixels, longer side)',
}

const NAMES = Object.keys(DEFAULT_BUDGETS) as BudgetName[]

/**
 * Budgets read from stored or typed data: each budget a pair of whole numbers of at least 1, the
 * recommended not above the maximum. What is missing takes its default (a budget added by a later
 * version); anything wrong is named in `problems`, and then `budgets` is undefined: a budget is
 * never guessed.
 */
export function validateBudgets(value: unknown): { budgets?: AssetBudgets; problems: string[] } {
  if (!isRecord(value)) return { problems: ['Budgets must be an object of named budgets.'] }
  const problems: string[] = []
  for (const key of Object.keys(value)) {
    if (!NAMES.includes(key as BudgetName))
      problems.push(`"${key}" is not a budget (known: ${NAMES.join(', ')}).`)
  }
  const budgets = {} as AssetBudgets
  for (const name of NAMES) {
    const given = value[name]
    if (given === undefined) {
      budgets[name] = { ...DEFAULT_BUDGETS[name] }
      continue
    }
    const title = BUDGET_TITLES[name]
    if (!isRecord(given)) {
      problems.push(`${title} (${name}) must be {recommended, maximum}.`)
      continue
    }
    const read = (part: keyof Budget) => {
      const number = given[part] ?? DEFAULT_BUDGETS[name][part]
      if (typeof number === 'number' && Number.isSafeInteger(number) && number >= 1) return number
      problems.push(
        `${title} (${name}.${part}) must be a whole number of at least 1, not ${JSON.stringify(number)}.`,
      )
      return undefined
    }
    const recommended = read('recommended')
    const maximum = read('maximum')
    if (recommended === undefined || maximum === undefined) continue
    const ceiling = BUDGET_CEILINGS[name]
    if (ceiling !== undefined && maximum > ceiling) {
      problems.push(
        `${title} (${name}.maximum) can be at most ${formatBytes(ceiling)}, the most a check downloads, not ${formatBytes(maximum)}.`,
      )
      continue
    }
    if (recommended > maximum) {
      problems.push(`${title} (${name}): the recommended ${recommended} is above the maximum ${maximum}.`)
      continue
    }
    budgets[name] = { recommended, maximum }
  }
  return problems.length > 0 ? { problems } : { budgets, problems }
}

/** Thousands with a comma, as people read them (one formatter: making one a call is slow). */
const THOUSANDS = new Intl.NumberFormat('en-US')
const count = (n: number) => THOUSANDS.format(n)

/**
 * One measure against its budget: an error over the maximum, a warning over the recommended
 * figure, nothing within. The message names the measure and the budget it passed.
 */
function overBudget(
  budget: Budget,
  measured: number,
  code: string,
  says: (shown: string) => string,
  shown: (n: number) => string,
): AssetProblem | undefined {
  if (measured > budget.maximum) {
    return {
      severity: 'error',
      code,
      message: `${says(shown(measured))}, over the maximum of ${shown(budget.maximum)}.`,
    }
  }
  if (measured > budget.recommended) {
    return {
      severity: 'warning',
      code,
      message: `${says(shown(measured))}, over the recommended ${shown(budget.recommended)}.`,
    }
  }
  return undefined
}

const side = (width: number | undefined, height: number | undefined) => Math.max(width ?? 0, height ?? 0)
const pixels = (n: number) => `${count(n)} pixels a side`

/** What the budgets say of an asset's facts (none when nothing could be read). */
export function budgetProblems(facts: AssetFacts | undefined, budgets: AssetBudgets): AssetProblem[] {
  if (!facts) return []
  const found: (AssetProblem | undefined)[] = []
  if (facts.class === 'model') {
    found.push(
      overBudget(
        budgets.modelBytes,
        facts.bytes,
        'over-budget-model-size',
        (n) => `The model is ${n}`,
        formatBytes,
      ),
    )
    if (facts.triangles !== undefined) {
      found.push(
        overBudget(
          budgets.triangles,
          facts.triangles,
          'over-budget-triangles',
          (n) => `The model has ${n} triangles`,
          count,
        ),
      )
    }
    if (facts.drawCalls !== undefined) {
      found.push(
        overBudget(
          budgets.drawCalls,
          facts.drawCalls,
          'over-budget-draw-calls',
          (n) => `The model takes ${n} draw calls`,
          count,
        ),
      )
    }
    for (const texture of facts.textures) {
      const longer = side(texture.width, texture.height)
      if (longer === 0) continue
      found.push(
        overBudget(
          budgets.textureSize,
          longer,
          'over-budget-texture-size',
          () => `The texture ${texture.pointer} is ${texture.width}×${texture.height} pixels`,
          pixels,
        ),
      )
    }
  } else {
    found.push(
      overBudget(
        budgets.pictureBytes,
        facts.bytes,
        'over-budget-picture-size',
        (n) => `The picture is ${n}`,
        formatBytes,
      ),
    )
    const longer = side(facts.width, facts.height)
    if (longer > 0) {
      found.push(
        overBudget(
          budgets.pictureSize,
          longer,
          'over-budget-picture-pixels',
          () => `The picture is ${facts.width}×${facts.height} pixels`,
          pixels,
        ),
      )
    }
  }
  return found.filter((problem) => problem !== undefined)
}
