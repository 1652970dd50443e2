import { errorReportCsv } from '#shared/sheet/report.ts'
import { MEDIA_TYPES } from '#shared/sheet/export.ts'
import { download } from '#renderer/adapters/download.ts'
import { heldBackLine } from '#shared/sync/unfilled-fields.ts'
import { reportOrder } from './grouped-problems.ts'
import type { DryRunReport, ReportedProblem } from './import-protocol.ts'

/**
 * A problem's line as the report and the screen's rows say it, with its severity where that is
 * not an error: the report's message column is all a spreadsheet shows.
 */
export function problemLine({ severity, message }: Pick<ReportedProblem, 'severity' | 'message'>): string {
  if (severity === 'held') return heldBackLine(message)
  return severity === 'warning' ? `Warning: ${message}` : message
}

/**
 * Saves the dry run's problems as a CSV the user can open next to the file to fix it: one line a
 * problem, in the screen's order (group after group, errors first, each group in row order), each
 * at its line in the file (or its item) as the screen names it.
 */
export function downloadErrorReport(
  report: Pick<DryRunReport, 'problems' | 'groups' | 'numbering'>,
  fileName: string,
): void {
  const rows = reportOrder(report.problems, report.groups).map(({ severity, ...problem }) => ({
    ...problem,
    message: problemLine({ severity, message: problem.message }),
  }))
  const name = `${fileName.replace(/\.[^.]+$/, '')} - problems.csv`
  download(new File([errorReportCsv(rows, report.numbering)], name, { type: MEDIA_TYPES.csv }))
}
