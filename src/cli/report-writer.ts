import type { DocumentKind } from '#shared/validation/document.ts'
import type { CheckedFile, CheckedItem, InputKind } from './check-input.ts'
import type { Output } from './io.ts'
import { JsonListSpool, jsonMember } from './json-layout.ts'
import type { MappingFile } from '#shared/sheet/mapping.ts'
import { sheetProblemLine, sheetSummaryLine, type SheetProblem } from './sheet-report.ts'
import { Spool } from './spool.ts'
import { NO_SKUS, problemLine, summaryLine, type LocatedProblem } from './validation-report.ts'

/**
 * The report of `validate` and `convert`, written as items are checked: each item's problems go
 * to a spool (spool.ts) in file order, which is the report's order (an item's lines together,
 * errors first); what comes before them (a sheet's notes, the problems of the file itself, the
 * counts of `--json`) is known only at the end, when `write` puts it first. Text and `--json`
 * alike are byte for byte what the report made from the whole file was.
 */
export interface ReportWriter {
  add(item: CheckedItem, kind: InputKind): void
  /** The report, once the file is read; `mapping` is added to `--json` when given. */
  write(out: Output, file: CheckedFile, mapping?: MappingFile): void
  close(): void
}

export function reportWriter(json: boolean): ReportWriter {
  return json ? jsonReport() : textReport()
}

const isSheet = (kind: InputKind): kind is 'csv' | 'xlsx' => kind === 'csv' || kind === 'xlsx'

/** The warning of a file that holds no SKUs, as a problem of its kind. */
function noSkus(kind: InputKind): LocatedProblem | SheetProblem {
  const message = NO_SKUS
  return isSheet(kind) ? { row: null, column: '', value: '', message } : { index: null, path: '', message }
}

function textReport(): ReportWriter {
  const lines = new Spool()
  const line = (problem: LocatedProblem | SheetProblem, warning: boolean, kind: InputKind) =>
    ('row' in problem
      ? sheetProblemLine(problem, warning)
      : problemLine(problem, warning, kind as DocumentKind)) + '\n'
  return {
    add(item, kind) {
      for (const problem of item.errors) lines.write(line(problem, false, kind))
      for (const problem of item.warnings) lines.write(line(problem, true, kind))
    },
    write(out, file) {
      const { kind } = file
      const head = isSheet(kind) ? file.notes.map((note) => `note: ${note}\n`) : []
      for (const problem of file.fileErrors) head.push(line(problem, false, kind))
      if (file.empty) head.push(line(noSkus(kind), true, kind))
      out.write(head.join(''))
      for (const chunk of lines.chunks()) out.write(chunk)
      out.write(
        (isSheet(kind)
          ? sheetSummaryLine(file, file.warnings)
          : summaryLine({ ...file, kind }, file.warnings, file.fileErrors.length)) + '\n',
      )
    },
    close: () => lines.close(),
  }
}

function jsonReport(): ReportWriter {
  const errors = new JsonListSpool()
  const warnings = new JsonListSpool()
  return {
    add(item) {
      for (const problem of item.errors) errors.add(problem)
      for (const problem of item.warnings) warnings.add(problem)
    },
    write(out, file, mapping) {
      const { kind, items, valid, invalid } = file
      const counts = { kind, items, valid, invalid }
      out.write(
        `{\n${Object.entries(counts)
          .map(([key, value]) => jsonMember(key, value))
          .join(',\n')},\n`,
      )
      errors.write(out, 'errors', file.fileErrors)
      out.write(',\n')
      warnings.write(out, 'warnings', file.empty ? [noSkus(kind)] : [])
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
