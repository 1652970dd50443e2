import { IDENTITY_FIELDS, type IdentityField } from '#shared/sync/send-gates.ts'
import { drafts } from './counting.ts'

/*
 * The words of a bulk edit that reaches what identifies a product: asked before it, naming what
 * could go wrong and to how many drafts.
 */

/** Whether a bulk edit of `path` changes what identifies a product (its barcode or name). */
export function isIdentityField(path: string): path is IdentityField {
  return (IDENTITY_FIELDS as readonly string[]).includes(path)
}

const NOUNS: Readonly<Record<IdentityField, string>> = { barcode: 'barcode', productName: 'product name' }

/** Why a bulk change of each identity field is a risk, as the question says it. */
const RISKS: Readonly<Record<IdentityField, string>> = {
  barcode:
    'Barcodes identify products: drafts that share one are held back from sending as duplicates, and the platform tells SKUs apart by them.',
  productName:
    'Product names are how shoppers, the platform and this list tell SKUs apart: drafts with one name read as one product.',
}

/** The question before a bulk set or removal of an identity field: its title, what is at risk, and its button. */
export function identityQuestion(
  field: IdentityField,
  n: number,
  removed: boolean,
): { title: string; risk: string; confirm: string } {
  const noun = NOUNS[field]
  if (removed)
    return {
      title: `Remove the ${noun} from ${drafts(n)}?`,
      risk: `${RISKS[field]} A draft without a ${noun} is held back from sending.`,
      confirm: `Remove the ${noun} from ${drafts(n)}`,
    }
  return {
    title: `Set the ${noun} of ${drafts(n)} to one value?`,
    risk: n > 1 ? RISKS[field] : `${RISKS[field]} Check it is this draft’s own.`,
    confirm: `Set the ${noun} of ${drafts(n)}`,
  }
}
