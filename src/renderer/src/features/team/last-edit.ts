import type { DraftMeta } from '#renderer/db/records.ts'
import { formatTime } from '#renderer/words/format.ts'

/**
 * A draft's last edit as the lists say it (SKUs and apps alike): when, and who when that version
 * came through the team workspace (issue #41) and was not edited here since: by their desk's
 * clock, under their name.
 */
export function lastEdit(draft: Pick<DraftMeta, 'updatedAt' | 'team'>): { at: number; by?: string } {
  const team = draft.team
  return team && team.sharedAt === draft.updatedAt && team.editedBy
    ? { at: team.editedAt, by: team.editedBy }
    : { at: draft.updatedAt }
}

/** A last edit in full, as the lists' tooltips say it: "Edited by ben, 29 Nov 2026, 18:15". */
export function lastEditWords({ at, by }: { at: number; by?: string }): string {
  return by ? `Edited by ${by}, ${formatTime(at)}` : formatTime(at)
}
