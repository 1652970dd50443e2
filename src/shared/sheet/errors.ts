/** Why a file could not be read as a sheet at all. The UI and the CLI show `message` as it is. */
export type SheetFileErrorCode =
  | 'empty'
  | 'no-header'
  | 'binary'
  | 'not-utf8'
  | 'too-large'
  | 'too-many-columns'
  | 'huge-cell'
  | 'unclosed-quote'
  | 'one-column'
  | 'not-xlsx'
  | 'old-xls'
  | 'aborted'

export class SheetFileError extends Error {
  readonly code: SheetFileErrorCode

  constructor(code: SheetFileErrorCode, message: string) {
    super(message)
    this.name = 'SheetFileError'
    this.code = code
  }
}
