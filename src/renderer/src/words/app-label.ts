import { UNTITLED_APP } from '#shared/sync/kinds.ts'
import type { AppDraftRecord } from '../db/records.ts'

/** How a draft is called in messages: its name in quotes, or the one word for an app without one. */
export function appLabel(record: Pick<AppDraftRecord, 'name'>): string {
  return record.name ? `“${record.name}”` : UNTITLED_APP
}
