import type { SkuDraftRecord } from '#renderer/db/records.ts'

export function productName(row: SkuDraftRecord): string {
  return row.productName || 'Untitled SKU'
}

export function categoryText(row: SkuDraftRecord): string {
  return [row.category, row.subCategory].filter(Boolean).join(' › ')
}

/** The product photo's address, when it is a web address main may fetch for the list (http or https). */
export function thumbnailUrl(row: SkuDraftRecord): string | undefined {
  const url = row.payload.productImage
  return typeof url === 'string' && /^https?:\/\/\S+$/i.test(url) ? url : undefined
}

const timeOfDay = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' })
const dayOfYear = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' })
const fullDay = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })

/** A last edit in a column's width: the time today, the day this year, the date before. */
export function shortTime(epochMs: number, now = new Date()): string {
  const then = new Date(epochMs)
  if (then.toDateString() === now.toDateString()) return timeOfDay.format(then)
  if (then.getFullYear() === now.getFullYear()) return dayOfYear.format(then)
  return fullDay.format(then)
}
