import { isAppColumn } from '#shared/sheet/app-columns.ts'
import { describeColumn, KEEP_COLUMN_PREFIX } from '#shared/sheet/columns.ts'
import { MAPPING_FILE_FORMAT, type SheetMapping } from '#shared/sheet/mapping.ts'
import type { ProductCounts } from '#shared/sheet/products.ts'
import type { ConversionTally } from '#shared/sheet/conversion-tally.ts'
import type { RowNumbering } from '#shared/sheet/places.ts'
import { conversionText, readAsText, skippedText } from '#shared/sheet/reading-words.ts'
import type { ColumnMatch, FieldPath } from '#shared/sheet/types.ts'
import { counted } from '#shared/counted.ts'

/**
 * What the CLI says about how it read a sheet, before the problems: the format and its products,
 * which column it took where two could fill one field and why, the shop codes it did not take for
 * the barcode, the columns its format reads itself and why, the columns kept or ignored (and the
 * field an ignored one's header looks like a typo of), and the cells it read differently from how
 * they were written. The app's import says the same on its mapping screen and dry run.
 */

export function productsNote(products: ProductCounts, numbering: RowNumbering): string {
  return `read as ${readAsText(products, numbering)}`
}

/** The products the format skipped (no physical product), when it skipped any. */
export function skippedNotes(products: ProductCounts): string[] {
  const skipped = skippedText(products)
  return skipped ? [skipped] : []
}

/** `filled`: the columns without a header that hold something in some row. */
export function columnNotes(
  matches: readonly ColumnMatch[],
  mapping: SheetMapping,
  filled: ReadonlySet<number>,
): string[] {
  const notes = structuralNotes(matches, mapping)
  const header = (column: number) => `"${matches[column]?.header ?? ''}"`
  // Said by suggestionNotes.
  const typos = new Set(typoColumns(matches, mapping).map((match) => match.column))
  for (const match of matches) {
    const path = mapping.columns[match.column] ?? null
    if (match.structural) continue
    if (path?.startsWith(KEEP_COLUMN_PREFIX)) {
      notes.push(
        `column ${header(match.column)} is kept as the extra field "${path.slice(KEEP_COLUMN_PREFIX.length)}"`,
      )
    } else if (path !== null && match.rivals?.length && match.path === path) {
      const others = match.rivals.map(header).join(' and ')
      notes.push(
        `column ${header(match.column)} fills ${describeColumn(path)}; ${others} could too and ${match.rivals.length === 1 ? 'is' : 'are'} ignored (${header(match.column)} ${match.contest}); choose another with --mapping`,
      )
    } else if (path !== null && match.byFormat && match.path === path) {
      notes.push(
        `column ${header(match.column)} fills ${describeColumn(path)} as the file's format reads it: ${match.why}`,
      )
    } else if (path === null && match.identifier) {
      notes.push(
        `column ${header(match.column)} is a shop's own code, not a barcode, and is not read; if it is the barcode, say so with --mapping ({"columns": {${JSON.stringify(match.header)}: "barcode"}})`,
      )
    } else if (path === null && match.by === 'saved') {
      notes.push(`column ${header(match.column)} is dropped by the mapping`)
    } else if (path === null && match.couldFill === undefined && !match.structural) {
      if (typos.has(match.column)) continue
      if (match.header.trim() !== '') {
        notes.push(`column ${header(match.column)} matches no field of the contract and is ignored`)
      } else if (filled.has(match.column)) {
        // A column without a header is said only when it holds something: spreadsheets pad with empty ones.
        notes.push(`column ${match.column + 1} has no header, so its cells are not read`)
      }
    }
  }
  return notes
}

/**
 * The columns the file's format reads itself, not as fields, by what it does with them, as the
 * app's mapping screen says beside each and its dry run lists them: WooCommerce's Type and
 * Parent, "Weight (lbs)" (the shipping package's, not the product's); Catalog Desk's own columns.
 */
function structuralNotes(matches: readonly ColumnMatch[], mapping: SheetMapping): string[] {
  const byReason = new Map<string, string[]>()
  const app: string[] = []
  const offered: string[] = []
  for (const match of matches) {
    if (!match.structural || (mapping.columns[match.column] ?? null) !== null) continue
    const header = `"${match.header}"`
    if (isAppColumn(match.header)) app.push(header)
    else if (match.offer !== undefined && !fills(mapping, match.offer))
      offered.push(
        `column ${header} is read by the file's format, not as a field. ${match.why ?? ''}; no other column fills ${describeColumn(match.offer)}: to take it for that, say so with --mapping ({"columns": {${JSON.stringify(match.header)}: "${match.offer}"}})`,
      )
    else byReason.set(match.why ?? '', [...(byReason.get(match.why ?? '') ?? []), header])
  }
  const listed = (headers: string[]) =>
    headers.length === 1
      ? `column ${headers[0]} is`
      : `columns ${headers.slice(0, -1).join(', ')} and ${headers.at(-1)} are`
  const notes = [...byReason].map(([why, headers]) => {
    const fields = headers.length === 1 ? 'a field' : 'fields'
    return `${listed(headers)} read by the file's format, not as ${fields}${why ? `. ${why}` : ''}`
  })
  if (app.length) notes.push(`${listed(app)} Catalog Desk's own, not read back`)
  return [...notes, ...offered]
}

/** Whether a column or a fixed value fills `field`. */
const fills = (mapping: SheetMapping, field: FieldPath) =>
  mapping.columns.includes(field) || Object.hasOwn(mapping.constants, field)

/** Columns read as nothing whose header looks like a typo of a field that no column fills. */
function typoColumns(matches: readonly ColumnMatch[], mapping: SheetMapping): ColumnMatch[] {
  return matches.filter(
    (match) =>
      match.suggestion !== undefined &&
      (mapping.columns[match.column] ?? null) === null &&
      !mapping.columns.includes(match.suggestion),
  )
}

/**
 * The columns whose header looks like a typo of a field ("Prodcut Name"): each named with the
 * field, which it does not fill unless the person says so, then the mapping file that says so.
 * `validate` and `convert` print them with the other notes; `push`, which prints no notes, too.
 */
export function suggestionNotes(matches: readonly ColumnMatch[], mapping: SheetMapping): string[] {
  const typos = typoColumns(matches, mapping)
  if (typos.length === 0) return []
  const columns = Object.fromEntries(typos.map((match) => [match.header, match.suggestion!]))
  const file = JSON.stringify({ format: MAPPING_FILE_FORMAT, columns })
  const one = typos.length === 1
  return [
    ...typos.map(
      (match) =>
        `column "${match.header}" matches no field of the contract and is ignored; it looks like ${describeColumn(match.suggestion!)} ("${match.suggestion}"), which it fills only if you say so`,
    ),
    `to read ${one ? 'that column' : 'those columns'} as suggested, save ${file} as a file and pass it with --mapping FILE (or write ${one ? 'it' : 'them'} into the mapping --show-mapping prints)`,
  ]
}

/** One line per field and kind: how many cells, an example, the first rows; then the defaults filled. */
export function conversionNotes(tally: ConversionTally, numbering: RowNumbering): string[] {
  const lines = tally.counts.map((count) => conversionText(count, numbering))
  const filled = tally.filled.map((f) => `${describeColumn(f.field)} (${counted(f.count, 'row')})`)
  if (filled.length)
    lines.push(`filled with the new-SKU defaults where the file has none: ${filled.join(', ')}`)
  return lines
}
