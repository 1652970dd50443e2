import type { Sku } from '#shared/schema/sku.ts'

/** A draft's category as the try-on reads it: trimmed text, '' when it has none. */
export function categoryOf(payload: Sku): string {
  const value = payload.category
  return typeof value === 'string' ? value.trim() : ''
}

/** The try-on knows how glasses sit on a face, nothing else: eyewear, or a draft not yet categorised. */
export function isEyewear(payload: Sku): boolean {
  const category = categoryOf(payload)
  return category === '' || category.toLowerCase() === 'eyewear'
}
