import { errorReportCsv } from '#shared/sheet/report.ts'
import { MEDIA_TYPES } from '#shared/sheet/export.ts'
import { download } from '#renderer/adapters/download.ts'
import { reportOrder } from './grouped-problems.ts'
import type { DryRunReport } from './import-protocol.ts'

/**
 * Saves the dry run's problems as a CSV the user can open next to the file to fix it: one line a
 * problem, in the screen's order (group after group, errors first, each group in row order).
 */
export function downloadErrorReport(
  report: Pick<DryRunReport, 'problems' | 'groups'>,
  fileName: string,
): void {
  // Warnings are said to be warnings: the report's message column is all a spreadsheet shows.
  const rows = reportOrder(report.problems, report.groups).map(({ severity, ...problem }) =>
    severity === 'warning' ? { ...problem, message: `Warning: ${problem.message}` } : problem,
  )
  const name = `${fileName.replace(/\.[^.]+$/, '')} - problems.csv`
  download(new File([errorReportCsv(rows)], name, { type: MEDIA_TYPES.csv }))
}
