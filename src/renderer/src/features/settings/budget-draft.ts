import {
  BUDGET_CEILINGS,
  BUDGET_TITLES,
  DEFAULT_BUDGETS,
  type AssetBudgets,
  type Budget,
  type BudgetName,
} from '#shared/asset-checks/budgets.ts'
import { formatBytes } from '#shared/byte-size.ts'

/**
 * The asset budgets as Settings edits them: a draft of what was saved, typed in the units people
 * think in (a byte budget in MB, as the checks' messages say it, 1 MB being 1,048,576 bytes), each
 * budget's problem in words naming it, and the budgets the draft stands for.
 */

const MB = 1024 * 1024
const IN_MB: ReadonlySet<BudgetName> = new Set(['modelBytes', 'pictureBytes'])
const NAMES = Object.keys(DEFAULT_BUDGETS) as BudgetName[]
const PARTS = ['recommended', 'maximum'] as const satisfies readonly (keyof Budget)[]
const THOUSANDS = new Intl.NumberFormat('en-US')

export interface BudgetRow {
  name: BudgetName
  /** Its title with the unit it is typed in: "Model size (MB)", "Triangles a model". */
  title: string
  inMegabytes: boolean
  /** The default pair in words: "15 MB recommended, 50 MB maximum". */
  defaults: string
}

export const BUDGET_ROWS: readonly BudgetRow[] = NAMES.map((name) => {
  const inMegabytes = IN_MB.has(name)
  const shown = (n: number) => (inMegabytes ? formatBytes(n) : THOUSANDS.format(n))
  const { recommended, maximum } = DEFAULT_BUDGETS[name]
  return {
    name,
    title: inMegabytes ? BUDGET_TITLES[name].replace('(bytes)', '(MB)') : BUDGET_TITLES[name],
    inMegabytes,
    defaults: `${shown(recommended)} recommended, ${shown(maximum)} maximum`,
  }
})

/** A figure as typed: a number, or '' while its input is empty or holds no number. */
export type Typed = number | ''
export type BudgetsDraft = Record<BudgetName, Record<keyof Budget, Typed>>

/** The budgets as the inputs show them: byte budgets in MB, to three decimals. */
export function draftOf(budgets: AssetBudgets): BudgetsDraft {
  const draft = {} as BudgetsDraft
  for (const { name, inMegabytes } of BUDGET_ROWS) {
    const shown = (n: number) => (inMegabytes ? Number((n / MB).toFixed(3)) : n)
    draft[name] = { recommended: shown(budgets[name].recommended), maximum: shown(budgets[name].maximum) }
  }
  return draft
}

/**
 * The figures a draft stands for, in the budgets' own units (NaN for one not typed). A figure left
 * as shown keeps its saved value exactly: a byte budget that is no round number of kilobytes (set
 * with the CLI's budgets, say) is shown rounded, and is not changed by a save of another budget.
 */
export function figuresOf(draft: BudgetsDraft, saved: AssetBudgets): AssetBudgets {
  const shown = draftOf(saved)
  const figures = {} as AssetBudgets
  for (const { name, inMegabytes } of BUDGET_ROWS) {
    const figure = (part: keyof Budget) => {
      const typed = draft[name][part]
      if (typed === shown[name][part]) return saved[name][part]
      if (typed === '') return Number.NaN
      return inMegabytes ? Math.round(typed * MB) : typed
    }
    figures[name] = { recommended: figure('recommended'), maximum: figure('maximum') }
  }
  return figures
}

/**
 * Each budget's first problem, by name, in words that name it as Settings shows it ("Triangles a
 * model: the maximum is below the recommended."). The rules are validateBudgets's, which main
 * applies again: whole numbers of at least 1, a size's maximum not above its ceiling, the
 * recommended not above the maximum.
 */
export function draftProblems(figures: AssetBudgets): Map<BudgetName, string> {
  const problems = new Map<BudgetName, string>()
  for (const { name, title, inMegabytes } of BUDGET_ROWS) {
    const problem = PARTS.map((part) => {
      const figure = figures[name][part]
      if (Number.isNaN(figure)) return `${title}: the ${part} figure is missing.`
      if (!Number.isInteger(figure) || figure < 1) {
        return inMegabytes
          ? `${title}: the ${part} must be more than 0 MB.`
          : `${title}: the ${part} must be a whole number of at least 1.`
      }
      if (!Number.isSafeInteger(figure)) return `${title}: the ${part} is too large.`
      return undefined
    }).find((found) => found !== undefined)
    const ceiling = BUDGET_CEILINGS[name]
    if (problem) problems.set(name, problem)
    else if (ceiling !== undefined && figures[name].maximum > ceiling)
      problems.set(
        name,
        `${title}: the maximum can be at most ${formatBytes(ceiling)}, the most a check downloads.`,
      )
    else if (figures[name].recommended > figures[name].maximum)
      problems.set(name, `${title}: the maximum is below the recommended.`)
  }
  return problems
}

/** The titles of the budgets whose figures differ from `saved`: what leaving now would lose. */
export function changedBudgets(figures: AssetBudgets, saved: AssetBudgets): string[] {
  return BUDGET_ROWS.filter(
    ({ name }) =>
      figures[name].recommended !== saved[name].recommended || figures[name].maximum !== saved[name].maximum,
  ).map((row) => row.title)
}
