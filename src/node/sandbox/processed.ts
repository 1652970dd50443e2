import type { Reply } from './reply.ts'

/** What processing one operation request came to, before any fault at stage 'after' changes the answer. */
export interface Processed {
  reply: Reply
  stored: boolean
  /** SKUs in the request's `skus` list; null when there was no list. */
  skuCount: number | null
}
