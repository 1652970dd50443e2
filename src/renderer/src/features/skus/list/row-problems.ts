import { parsePath } from '#shared/json-path.ts'
import { findField } from '#shared/schema/catalogue.ts'
import { fieldName } from '#shared/validation/messages.ts'
import { isMissingField, skuCatalogue, validateSku } from '#shared/validation/validate.ts'
import type { Problem } from '#shared/validation/problem.ts'
import { fieldSection } from '#shared/sheet/columns.ts'
import { NOT_FILLED } from '#shared/sync/unfilled-fields.ts'
import { counted } from '#renderer/words/counting.ts'

/**
 * A list row's problems in the editor's words, for the popover its Checks badge opens: which
 * field, where the editor shows it, and what is wrong. The list stores only the counts; the
 * messages come from validating the one row's payload when asked (never the whole list).
 */
export interface RowProblem {
  /** Dotted JSON path of the field (empty for the draft as a whole). */
  path: string
  /** The field as the editor labels it: "Intensity", "Model address of 3D asset 1". */
  field: string
  /** The editor's section that holds it: "Product", "AR effect › Environment". Empty for the draft. */
  where: string
  /**
   * What is wrong, as the validator says it ("Intensity must be a number, not the text "high"").
   * Empty for a field left empty, whose group says it all ("Fields not filled: Category").
   */
  message: string
}

export interface RowProblems {
  errors: RowProblem[]
  /** Fields the contract lists that the draft lacks (the validator's missing-field warnings). */
  missing: RowProblem[]
  /** The validator's other warnings, about a value that is there (a barcode's check digit). */
  warnings: RowProblem[]
}

/** "Intensity", "Model address of 3D asset 1", "The draft" for the document itself. */
export function fieldTitle(path: string): string {
  if (path === '') return 'The draft'
  return fieldName(skuCatalogue(), parsePath(path))
}

/** The editor's section a field sits in (none for the draft itself). */
export function sectionOf(path: string): string {
  return path === '' ? '' : fieldSection(path)
}

function described(problem: Problem): RowProblem {
  return {
    path: problem.path,
    field: fieldTitle(problem.path),
    where: sectionOf(problem.path),
    message: problem.message,
  }
}

/** A missing field: its message is only "<title> is missing", which the group already says. */
function missingField(problem: Problem): RowProblem {
  const row = described(problem)
  const plain =
    problem.message === `${findField(skuCatalogue(), parsePath(problem.path)).node.meta.title} is missing`
  return plain ? { ...row, message: '' } : row
}

/** Validates one draft's payload and puts its problems in the list's words: errors, missing fields, other warnings. */
export function rowProblems(payload: unknown): RowProblems {
  const result = validateSku(payload)
  return {
    errors: result.errors.map(described),
    missing: result.warnings.filter(isMissingField).map(missingField),
    warnings: result.warnings.filter((problem) => !isMissingField(problem)).map(described),
  }
}

/** "1 error and 2 fields not filled", "2 fields not filled and 1 warning", "No errors or fields not filled". */
export function problemsSummary(problems: RowProblems): string {
  const parts: string[] = []
  const { errors, missing, warnings } = problems
  if (errors.length) parts.push(`${errors.length} error${errors.length === 1 ? '' : 's'}`)
  if (missing.length) parts.push(`${counted(missing.length, 'field')} ${NOT_FILLED}`)
  if (warnings.length) parts.push(`${warnings.length} warning${warnings.length === 1 ? '' : 's'}`)
  if (parts.length === 0) return `No errors or fields ${NOT_FILLED}`
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`
}
