import type { z } from '../schema/zod.ts'
import { skuSchema } from '../schema/sku.ts'
import { appCreateRequestSchema } from '../schema/app.ts'
import { buildCatalogue, findField, type FieldNode } from '../schema/catalogue.ts'
import { readNumberText } from '../values/number-text.ts'
import { gtinFinding } from '../values/gtin.ts'
import { describeIssue, fieldName } from './messages.ts'
import { formatPath, type Problem, type ValidationResult } from './problem.ts'
import { isRecord } from '../is-record.ts'
import { lazily } from '../lazily.ts'

/** The SKU's fields with their words, built on first use (as the schema it walks, issue #37). */
export const skuCatalogue = lazily(() => buildCatalogue(skuSchema(), 'SKU'))
export const appCatalogue = lazily(() => buildCatalogue(appCreateRequestSchema(), 'App'))
/** The keys a SKU's contract names at its top level (`brand`, `arEffect`…). */
export const skuKeys = lazily(() => new Set(skuCatalogue().children.map((child) => child.key)))

function validateWith(schema: z.ZodType, catalogue: FieldNode, value: unknown): ValidationResult {
  const parsed = schema.safeParse(value, { reportInput: true })
  const errors = parsed.success
    ? []
    : parsed.error.issues.map(
        (issue) => numberTextProblem(issue, catalogue) ?? describeIssue(issue, catalogue),
      )
  const reported = new Set(errors.map((error) => error.path))
  const written = textProblems(catalogue, value).filter((problem) => !reported.has(problem.path))
  return { errors: [...errors, ...written], warnings: missingFields(catalogue, value) }
}

/**
 * An address shown around its first space, where a shortened one hid it: a tryout's Merchant feed's
 * 30 refused pictures all read "https://jchairstudios62.xyz/images/produ…", their spaces (in
 * "BT Skin D30") cut off.
 */
function aroundSpace(address: string): string {
  const at = address.search(/\s/)
  const start = Math.max(0, at - 30)
  const end = Math.min(address.length, at + 11)
  return `${start > 0 ? '…' : ''}${address.slice(start, end)}${end < address.length ? '…' : ''}`
}

/**
 * A control character no text holds (tab and line breaks aside): C1's (U+0080–U+009F) are what
 * UTF-8 read in a legacy code page and written out again leaves, as in a tryout's Thai jewellery
 * sheet, whose every name read "เน\u0081เธซเธงเธ\u0099…" and went to the platform so.
 */
// eslint-disable-next-line no-control-regex -- the point is to find them
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/

/**
 * What the schema does not see in text as written:
 * - web addresses with a space inside, a tab or a line break. The URL standard drops tabs and line
 *   breaks and takes spaces into the path, so "https://a/1.jpg https://a/2.jpg" (how some shops
 *   join a product's pictures: Squarespace's "Hosted Image URLs") passes as one address; the value
 *   is sent as written, so it is refused here, where it is seen as written;
 * - text holding a control character (`CONTROL`), garbled on its way to the file.
 */
function textProblems(root: FieldNode, value: unknown): Problem[] {
  const out: Problem[] = []
  const visit = (node: FieldNode, current: unknown, path: PropertyKey[]) => {
    if (node.meta.kind === 'url' && typeof current === 'string' && /\s/.test(current.trim())) {
      out.push({
        path: formatPath(path),
        message: `${fieldName(root, path)} must be one web address, with no space inside (two addresses joined, or a space to write as %20), not the text "${aroundSpace(current.trim())}"`,
      })
    } else if (typeof current === 'string' && CONTROL.test(current)) {
      const code = current.codePointAt(current.search(CONTROL))!.toString(16).toUpperCase().padStart(4, '0')
      out.push({
        path: formatPath(path),
        message: `${fieldName(root, path)} holds a control character (U+${code}), which no text has: it was garbled on its way to this file (UTF-8 read in another encoding, then saved), so correct it where it comes from`,
      })
    } else if (node.children.length > 0 && isRecord(current)) {
      for (const child of node.children) visit(child, current[child.key], [...path, child.key])
    } else if (node.item && Array.isArray(current)) {
      current.forEach((entry, index) => visit(node.item!, entry, [...path, index]))
    }
  }
  visit(root, value, [])
  return out
}

/**
 * Text where the contract wants a number, said as the reader the editor and the importer share
 * says it: why the text is not a number ("1,5": decimals take a dot), not only that it is text.
 * Text the reader does read as a number ("0.012" in quotes) keeps the schema's message. Here
 * rather than in messages.ts, which the reader itself uses for its words.
 */
function numberTextProblem(issue: z.core.$ZodIssue, catalogue: FieldNode): Problem | undefined {
  if (issue.code !== 'invalid_type' || typeof issue.input !== 'string') return undefined
  const { node, exact } = findField(catalogue, issue.path)
  const { kind } = node.meta
  if (!exact || (kind !== 'number' && kind !== 'integer')) return undefined
  const name = fieldName(catalogue, issue.path)
  const read = readNumberText(issue.input, { name, integer: kind === 'integer' })
  return 'error' in read ? { path: formatPath(issue.path), message: read.error } : undefined
}

/**
 * How a spreadsheet shows a long number it did not keep as text: one digit, maybe decimals, `E+`
 * and the exponent (8.90123E+12, 9E+12). The digits it stood for are gone.
 */
const SHORTENED_NUMBER = /^\d(?:[.,]\d+)?E\+\d+$/i

/**
 * Validates one SKU as written. Never changes it: what the user wrote is what is stored and sent.
 * Beyond the schema, two rules the contract implies:
 * - an object holding none of its fields (a row whose columns all went unrecognised, an app's
 *   answer, some other JSON) is not a SKU: it would be created empty;
 * - a barcode a spreadsheet shortened to exponent notation names no product any more.
 * And warnings: a barcode that reads as a GTIN with a wrong check digit, or a letter where a
 * digit belongs (src/shared/values/gtin.ts), which the contract takes as any text and a profile may
 * hold back (send-gates.ts); a status the platform is not known to take ("Enabled", "publish": a
 * shop's own status mapped from a sheet), which the contract leaves open.
 */
export function validateSku(value: unknown): ValidationResult {
  const result = validateWith(skuSchema(), skuCatalogue(), value)
  if (!isRecord(value)) return result
  if (!skuCatalogue().children.some((field) => value[field.key] !== undefined)) {
    result.errors.unshift({
      path: '',
      message:
        'None of the contract’s SKU fields is here (such as productName or barcode): this is not a SKU',
    })
    // Each of them "missing" besides says it thirteen times more (a stock sheet's every row).
    result.warnings = result.warnings.filter((warning) => missingTitle(warning.message) === undefined)
  }
  if (typeof value.barcode === 'string' && SHORTENED_NUMBER.test(value.barcode.trim())) {
    result.errors.push({
      path: 'barcode',
      message: `Barcode "${value.barcode}" was shortened to a number by a spreadsheet, and its digits are lost: format the column as text and type the barcode again`,
    })
  }
  const finding = typeof value.barcode === 'string' ? gtinFinding(value.barcode) : undefined
  if (finding) result.warnings.push({ path: 'barcode', message: finding.message })
  const status = unknownStatus(value.status)
  if (status) result.warnings.push({ path: 'status', message: status })
  return result
}

/**
 * The statuses the platform is known to take are its contract's DRAFT and its docs' PUBLISHED
 * (the status field's examples); any other text is sent as written, and said.
 */
function unknownStatus(status: unknown): string | undefined {
  if (typeof status !== 'string' || status.trim() === '') return undefined
  const known = (findField(skuCatalogue(), ['status']).node.meta.examples ?? []).map(String)
  if (known.includes(status)) return undefined
  return `Status “${status}” is not one the platform is known to take (${known.join(' or ')}): a shop’s own status is not the platform’s`
}

export function validateAppRequest(value: unknown): ValidationResult {
  return validateWith(appCreateRequestSchema(), appCatalogue(), value)
}

const MISSING = ' is missing'

/** The validator's warning for a field the contract lists that a SKU lacks: "Brand is missing". */
export function missingMessage(title: string): string {
  return `${title}${MISSING}`
}

/** The field named by such a warning ("Brand" of "Brand is missing"); undefined for any other message. */
export function missingTitle(message: string): string | undefined {
  return message.endsWith(MISSING) ? message.slice(0, -MISSING.length) : undefined
}

/**
 * Whether a warning says that a field the contract lists is missing ("Brand is missing"), rather
 * than something worth a look in a value that is there (a barcode's check digit): screens that
 * list missing fields count the others apart.
 */
export function isMissingField(problem: Problem): boolean {
  return missingTitle(problem.message) !== undefined
}

/**
 * Fields the contract lists that the document lacks. The contract shows no required fields, so
 * these are warnings. Only the highest missing level is reported: a missing section is one
 * warning, not one per field inside it.
 */
function missingFields(root: FieldNode, value: unknown): Problem[] {
  const out: Problem[] = []
  const visit = (node: FieldNode, current: unknown, path: string) => {
    if (node.children.length > 0 && isRecord(current)) {
      for (const child of node.children) {
        const childPath = path ? `${path}.${child.key}` : child.key
        if (current[child.key] === undefined) {
          if (child.meta.expected) out.push({ path: childPath, message: missingMessage(child.meta.title) })
        } else {
          visit(child, current[child.key], childPath)
        }
      }
    } else if (node.item && Array.isArray(current)) {
      current.forEach((entry, index) => entry !== null && visit(node.item!, entry, `${path}.${index}`))
    }
  }
  visit(root, value, '')
  return out
}
