import type { DocumentKind } from '#shared/validation/document.ts'
import type { RowNumbering } from '#shared/sheet/places.ts'
import { groupWords, kindDetail, ProblemGrouper, type ProblemGroup } from '#shared/sheet/problem-groups.ts'
import type { CellProblem } from '#shared/sheet/types.ts'
import type { CheckedFile, CheckedItem, InputKind } from './check-input.ts'
import type { Output } from './io.ts'
import { BatchedOutput } from './batched-output.ts'
import { JsonListSpool, jsonAt, jsonMember } from './json-layout.ts'
import type { MappingFile } from '#shared/sheet/mapping.ts'
import { lineOf, sheetProblemLine, sheetSummaryLine, type SheetProblem } from './sheet-report.ts'
import { Spool } from './spool.ts'
import { NO_SKUS, problemLine, summaryLine, type LocatedProblem } from './validation-report.ts'
import { placeList } from './verdict-report.ts'
import { quotedCell } from '#shared/sheet/reading-words.ts'

/**
 * The report of `validate` and `convert`, written as items are checked. The text groups the
 * problems as the app's import does (problem-groups.ts): one line a column and kind of problem,
 * with its lines ("Barcode is missing (warning): lines 2, 3, … and 285 more"), errors first, then the
 * biggest groups; a problem of one row alone is its own line. With `all`, every problem is a line
 * of its own, in file order (an item's lines together, errors first), spooled (spool.ts) as the
 * `--json` lists are. What comes before them (a sheet's notes, the problems of the file itself, the
 * counts of `--json`) is known only at the end, when `write` puts it first.
 */
export interface ReportWriter {
  add(item: CheckedItem, kind: InputKind): void
  /**
   * The report, once the file is read; `mapping` is added to `--json` when given, and so are the
   * verdict's members (verdict-report.ts).
   */
  write(out: Output, file: CheckedFile, extra?: ReportExtra): void
  close(): void
}

export interface ReportExtra {
  mapping?: MappingFile
  /** `--json`'s verdict: `sendable` and `heldBack` go after the counts, the rest after the problems. */
  verdict?: Record<string, unknown>
}

/** `all`: every problem a line of the text (`--all`), not grouped; `--json` lists every one either way. */
export function reportWriter(json: boolean, { all = true }: { all?: boolean } = {}): ReportWriter {
  return json ? jsonReport() : all ? textReport() : groupedReport()
}

const isSheet = (kind: InputKind): kind is 'csv' | 'xlsx' | 'xml' | 'json-products' =>
  kind === 'csv' || kind === 'xlsx' || kind === 'xml' || kind === 'json-products'

/** The warning of a file that holds no SKUs, as a problem of its kind. */
function noSkus(kind: InputKind): LocatedProblem | SheetProblem {
  const message = NO_SKUS
  return isSheet(kind) ? { row: null, column: '', value: '', message } : { index: null, path: '', message }
}

/** One problem as a line of the text report (`--all`'s lines, and a group of one row). */
function problemText(problem: LocatedProblem | SheetProblem, warning: boolean, kind: InputKind): string {
  return (
    ('row' in problem
      ? sheetProblemLine(problem, warning)
      : problemLine(problem, warning, kind as DocumentKind)) + '\n'
  )
}

/** The text report's first lines: a sheet's notes, the file's own problems, an empty file's warning. */
function headText(file: CheckedFile): string {
  const { kind } = file
  const head = isSheet(kind) ? file.notes.map((note) => `note: ${note}\n`) : []
  for (const problem of file.fileErrors) head.push(problemText(problem, false, kind))
  if (file.empty) head.push(problemText(noSkus(kind), true, kind))
  return head.join('')
}

/** The counts line: "24 SKUs checked: 24 valid, 0 invalid, 62 warnings". */
function summaryText(file: CheckedFile): string {
  const { kind } = file
  return (
    (isSheet(kind)
      ? sheetSummaryLine(file, file.warnings)
      : summaryLine({ ...file, kind }, file.warnings, file.fileErrors.length)) + '\n'
  )
}

function textReport(): ReportWriter {
  const lines = new Spool()
  return {
    add(item, kind) {
      for (const problem of item.errors) lines.write(problemText(problem, false, kind))
      for (const problem of item.warnings) lines.write(problemText(problem, true, kind))
    },
    write(out, file) {
      out.write(headText(file))
      for (const chunk of lines.chunks()) out.write(chunk)
      out.write(summaryText(file))
    },
    close: () => lines.close(),
  }
}

function groupedReport(): ReportWriter {
  const groups = new ProblemGrouper()
  // A JSON item's problems are grouped as a sheet's are: its index as the row, its path as the column.
  const asCells = (
    item: CheckedItem,
    problems: ReadonlyArray<LocatedProblem | SheetProblem>,
  ): CellProblem[] =>
    problems.map((problem) =>
      'row' in problem
        ? { row: item.row ?? 0, column: problem.column, value: problem.value, message: problem.message }
        : { row: item.index, column: problem.path, value: '', message: problem.message },
    )
  return {
    add(item) {
      groups.add('error', asCells(item, item.errors))
      groups.add('warning', asCells(item, item.warnings))
    },
    write(out, file) {
      out.write(headText(file))
      for (const group of groups.list) out.write(groupText(group, file))
      out.write(summaryText(file))
    },
    close() {},
  }
}

/**
 * One group as a line: a problem of one row as `--all` prints it; the same problem in several
 * rows with the cell's text left out where it differs, and its lines ("…: lines 2, 4, 5, … and 14
 * more").
 */
function groupText(group: ProblemGroup, file: Pick<CheckedFile, 'kind' | 'numbering'>): string {
  const { kind } = file
  const warning = group.severity === 'warning'
  const sheet = isSheet(kind)
  const numbering: RowNumbering = file.numbering ?? 'lines'
  if (group.count === 1) {
    const row = group.rows[0]!
    const problem = sheet
      ? { row, ...lineOf(row, numbering), column: group.column, value: '', message: group.message }
      : { index: row, path: group.column, message: group.message }
    return problemText(problem, warning, kind)
  }
  const where = group.column ? (sheet ? `column "${group.column}": ` : `${group.column}: `) : ''
  const places = { ...(sheet && { numbering }), all: false }
  const rows = placeList(group.rows, places, group.count)
  // Said by its kind, the group quotes its first row's cell: "…" is not what the cells hold.
  const detail = kindDetail(group.message)
  const example =
    group.varied && group.example !== undefined
      ? ` (${placeList(group.rows.slice(0, 1), places, 1)}: ${quotedCell(group.example.trim())}${detail ? `, ${detail}` : ''})`
      : ''
  return `${where}${groupWords(group)}${warning ? ' (warning)' : ''}: ${rows}${example}\n`
}

/** A list of the verdict's given as it is made (its holds, one a held SKU), not as an array. */
const isList = (value: unknown): value is Iterable<unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Symbol.iterator in value

/** `"key": [ … ]` after the members before it, written in batches as `items` come. */
function writeList(out: Output, key: string, items: Iterable<unknown>): void {
  const batched = new BatchedOutput(out)
  let count = 0
  for (const item of items)
    batched.write((count++ === 0 ? `,\n  ${JSON.stringify(key)}: [\n` : ',\n') + jsonAt(item, 2))
  batched.write(count === 0 ? `,\n  ${JSON.stringify(key)}: []` : '\n  ]')
  batched.flush()
}

function jsonReport(): ReportWriter {
  const errors = new JsonListSpool()
  const warnings = new JsonListSpool()
  return {
    add(item) {
      for (const problem of item.errors) errors.add(problem)
      for (const problem of item.warnings) warnings.add(problem)
    },
    write(out, file, { mapping, verdict } = {}) {
      const { kind, items, valid, invalid } = file
      const { sendable, heldBack, ...rest } = verdict ?? {}
      const counts = { kind, items, valid, invalid, ...(verdict ? { sendable, heldBack } : {}) }
      out.write(
        `{\n${Object.entries(counts)
          .map(([key, value]) => jsonMember(key, value))
          .join(',\n')},\n`,
      )
      errors.write(out, 'errors', file.fileErrors)
      out.write(',\n')
      warnings.write(out, 'warnings', file.empty ? [noSkus(kind)] : [])
      for (const [key, value] of Object.entries(rest)) {
        if (isList(value)) writeList(out, key, value)
        else out.write(`,\n${jsonMember(key, value)}`)
      }
      if (isSheet(kind)) out.write(`,\n${jsonMember('notes', file.notes)}`)
      if (mapping) out.write(`,\n${jsonMember('mapping', mapping)}`)
      out.write('\n}\n')
    },
    close() {
      errors.close()
      warnings.close()
    },
  }
}
