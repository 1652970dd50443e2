/** The spreadsheet pipeline in one import: columns, conversion, files in and out, templates. */
export { describeColumn, JSON_COLUMN_PREFIX, matchColumns, normaliseHeader, skuColumns } from './columns.ts'
export { cellConverter, convertCell, type Converted } from './convert.ts'
export {
  parseCsvText,
  streamCsv,
  toCsv,
  type CsvHandlers,
  type CsvStreamOptions,
  type ParsedSheet,
} from './csv.ts'
export { SheetFileError, type SheetFileErrorCode } from './errors.ts'
export {
  bulkRequestJson,
  numberColumns,
  skusToCsv,
  skusToSheet,
  skusToXlsx,
  type SheetData,
} from './export.ts'
export { escapeFormula, unescapeFormula } from './formula.ts'
export { HELP_MARKER, isBlankRow, isHelpRow } from './help-row.ts'
export { MAX_CELL_CHARS, MAX_COLUMNS } from './limits.ts'
export { errorReportCsv, formatCellProblem } from './report.ts'
export {
  convertSheet,
  documentToResults,
  readSheet,
  rowToSku,
  SheetConverter,
  type DocumentResults,
} from './rows.ts'
export { templateCsv, templateSheet, templateXlsx, type TemplateSheet } from './template.ts'
export { readXlsx, writeXlsx, type XlsxOptions } from './xlsx.ts'
export type * from './types.ts'
