import { describeColumn, KEEP_COLUMN_PREFIX } from '#shared/sheet/columns.ts'
import type { SheetMapping } from '#shared/sheet/mapping.ts'
import { FORMAT_NAMES, type ProductCounts } from '#shared/sheet/products.ts'
import { ConversionTally } from '#shared/sheet/conversion-tally.ts'
import type { ColumnMatch, ConversionKind, RowResult } from '#shared/sheet/types.ts'
import { plural } from '#shared/plural.ts'

/**
 * What the CLI says about how it read a sheet, before the problems: the format and its products,
 * which column it took where two could fill one field and why, the shop codes it did not take for
 * the barcode, the columns kept or ignored, and the cells it read differently from how they were
 * written. The app's import says the same on its mapping screen and dry run.
 */

export function productsNote(products: ProductCounts): string {
  const parts = [plural(products.products, 'product'), plural(products.variants, 'variant')]
  if (products.imageRows) parts.push(`${plural(products.imageRows, 'image row')} (not SKUs)`)
  if (products.orphans)
    parts.push(
      `${plural(products.orphans, 'variation')} whose parent is not in the file, each read as a product`,
    )
  return `read as a ${FORMAT_NAMES[products.format]}: ${parts.join(', ')}`
}

export function columnNotes(
  matches: readonly ColumnMatch[],
  mapping: SheetMapping,
  rows: readonly string[][],
): string[] {
  const notes: string[] = []
  const header = (column: number) => `"${matches[column]?.header ?? ''}"`
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
        `column ${header(match.column)} fills ${describeColumn(path)}; ${others} could too and ${match.rivals.length === 1 ? 'is' : 'are'} ignored (${rivalReason(match, matches)}); choose another with --mapping`,
      )
    } else if (path === null && match.identifier) {
      notes.push(
        `column ${header(match.column)} is a shop's own code, not a barcode, and is not read; if it is the barcode, say so with --mapping ({"columns": {${JSON.stringify(match.header)}: "barcode"}})`,
      )
    } else if (path === null && match.couldFill === undefined && !match.structural) {
      if (match.header.trim() !== '') {
        notes.push(`column ${header(match.column)} matches no field of the contract and is ignored`)
      } else if (rows.some((cells) => (cells[match.column] ?? '').trim() !== '')) {
        // A column without a header is said only when it holds something: spreadsheets pad with empty ones.
        notes.push(`column ${match.column + 1} has no header, so its cells are not read`)
      }
    }
  }
  return notes
}

function rivalReason(winner: ColumnMatch, matches: readonly ColumnMatch[]): string {
  const loser = matches[winner.rivals![0]!]
  return loser?.why?.split(': ').slice(1).join(': ') || 'it comes first in the file'
}

const KIND_WORDS: Record<ConversionKind, string> = {
  'yes-no': 'read as yes or no',
  spelling: 'spelled as suggested',
  'decimal-comma': 'read with a decimal comma',
  'unit-dropped': 'with the unit dropped',
  'unit-converted': 'converted',
  'category-path': 'read as a category path',
  'first-image': 'holding several images, the first taken',
}

/** One line per field and kind: how many cells, an example, the first rows. */
export function conversionNotes(results: readonly RowResult[]): string[] {
  const tally = new ConversionTally()
  tally.add(results)
  const lines = tally.counts.map(
    (t) =>
      `${describeColumn(t.field)}: ${plural(t.count, 'cell')} ${KIND_WORDS[t.kind]} ("${t.from}" → ${t.to}), row${t.rows.length > 1 ? 's' : ''} ${t.rows.join(', ')}${t.count > t.rows.length ? ', …' : ''}`,
  )
  const filled = tally.filled.map((f) => `${describeColumn(f.field)} (${plural(f.count, 'row')})`)
  if (filled.length)
    lines.push(`filled with the new-SKU defaults where the file has none: ${filled.join(', ')}`)
  return lines
}
