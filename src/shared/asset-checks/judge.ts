import { budgetProblems, type AssetBudgets } from './budgets.ts'
import { typeWords } from './picture-sniff.ts'
import { statusOf, type AssetCheck, type AssetKind, type AssetOutcome, type AssetProblem } from './results.ts'

/**
 * An asset's outcome judged for the field naming it, against the budgets: what a person reads.
 * One outcome may be judged several ways in a run (an address named as a product photo by one
 * SKU and as an environment by another), and again under other budgets without fetching anything.
 */

/** The pictures each kind of field takes, and how to say them. */
const ACCEPTED: Readonly<Record<Exclude<AssetKind, 'model'>, { types: ReadonlySet<string>; words: string }>> =
  {
    // What a shop page or the platform shows as a product photo.
    'product-image': {
      types: new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif', 'image/svg+xml']),
      words: 'PNG, JPEG, WebP, GIF, AVIF or SVG',
    },
    // What lights the model: high dynamic range, or an ordinary picture as an equirectangular map.
    'environment-image': {
      types: new Set([
        'image/vnd.radiance',
        'image/x-exr',
        'image/png',
        'image/jpeg',
        'image/webp',
        'image/avif',
      ]),
      words: 'Radiance HDR, OpenEXR, PNG, JPEG, WebP or AVIF',
    },
    '2d-asset': {
      types: new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif', 'image/svg+xml']),
      words: 'PNG, JPEG, WebP, GIF, AVIF or SVG',
    },
  }

const KIND_WORDS: Readonly<Record<AssetKind, string>> = {
  model: 'a 3D model',
  'product-image': 'a product image',
  'environment-image': 'an environment image',
  '2d-asset': 'a 2D asset',
}

export function judge(outcome: AssetOutcome, kind: AssetKind, budgets: AssetBudgets): AssetCheck {
  const problems: AssetProblem[] = [...outcome.problems]
  const { facts } = outcome
  if (
    kind !== 'model' &&
    facts?.class === 'picture' &&
    facts.type &&
    outcome.problems.every((p) => p.severity !== 'error')
  ) {
    const accepted = ACCEPTED[kind]
    if (!accepted.types.has(facts.type)) {
      problems.push({
        severity: 'error',
        code: 'wrong-picture-type',
        message: `It is ${typeWords(facts.type)}, which ${KIND_WORDS[kind]} cannot be (${accepted.words}).`,
      })
    }
  }
  problems.push(...budgetProblems(facts, budgets))
  // Errors first, as validate lists them.
  problems.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1))
  const check: AssetCheck = { url: outcome.url, kind, status: statusOf(problems), problems }
  if (facts) check.facts = facts
  return check
}
