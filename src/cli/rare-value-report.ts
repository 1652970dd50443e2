import { rareValueQuestion, RareValueTally, type RareValueRows } from '#shared/rare-values.ts'
import type { CheckedFile, CheckedItem, InputKind } from './check-input.ts'
import { linesOf, placeList } from './verdict-report.ts'

/**
 * The values `validate` asks about (src/shared/rare-values.ts): a category, sub-category, brand or
 * status on a handful of rows, one or two typos from one on many. A question, not a problem: it
 * never counts as an error or a warning, and the exit status stays what the checks and the verdict
 * make it. Said after the verdict, each with its first rows; `--json` adds `rareValues`.
 */
export class RareValueReport {
  private readonly tally = new RareValueTally()
  private sheet = false

  add(item: CheckedItem, kind: InputKind): void {
    if (kind === 'app-request') return
    this.sheet = item.row !== undefined
    // A JSON list's items are counted from 1 here and said from 0, as [N] is.
    this.tally.add(item.payload, item.row ?? item.index + 1)
  }

  private found(): RareValueRows[] {
    return this.tally.rareValues()
  }

  /** Places as the verdict says them: a sheet's lines or items, a JSON list's indexes. */
  private places(rare: RareValueRows): number[] {
    return this.sheet ? rare.rows : rare.rows.map((row) => row - 1)
  }

  /** The questions, after a heading, or nothing when there are none. */
  text(file: Pick<CheckedFile, 'numbering'>): string {
    const found = this.found()
    if (found.length === 0) return ''
    const numbering = this.sheet ? (file.numbering ?? 'lines') : undefined
    const lines = found.map((rare) => {
      const where = placeList(this.places(rare), { ...(numbering && { numbering }), all: false }, rare.count)
      return `  ${rareValueQuestion(rare, { noun: this.sheet ? 'row' : 'SKU', where })}`
    })
    return `values that look like typos of a common one (a question, not a problem: nothing is changed):\n${lines.join('\n')}\n`
  }

  /**
   * `--json`'s `rareValues`: each with its first rows (a sheet's, with their `lines`) or indexes,
   * and the question as the text says it.
   */
  json(file: Pick<CheckedFile, 'numbering'>): Record<string, unknown>[] {
    const numbering = this.sheet ? (file.numbering ?? 'lines') : undefined
    return this.found().map((rare) => {
      const { rows, ...counts } = rare
      const where = placeList(this.places(rare), { ...(numbering && { numbering }), all: false }, rare.count)
      return {
        ...counts,
        ...(this.sheet ? { rows, ...linesOf(rows, numbering) } : { indexes: this.places(rare) }),
        message: rareValueQuestion(rare, { noun: this.sheet ? 'row' : 'SKU', where }),
      }
    })
  }
}
