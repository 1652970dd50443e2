import { BARCODE_PART_MIN } from '#shared/search-terms.ts'

const FEW_DIGITS = new RegExp(`^\\d{1,${BARCODE_PART_MIN - 1}}$`)

/**
 * What the list adds to "No draft matches “123”." when a search of a few digits found nothing: so
 * few find a barcode by its start only (search-terms.ts says why), and a tryout was not told.
 */
export function noMatchHint(search: string): string {
  return FEW_DIGITS.test(search.trim())
    ? `A barcode is found by its first digits, or by ${BARCODE_PART_MIN} digits or more from anywhere in it.`
    : ''
}
