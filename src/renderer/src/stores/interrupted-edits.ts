import { takeUnsavedEdits } from '#renderer/adapters/unsaved-edits.ts'
import type { CatalogDatabase } from '#renderer/db/database.ts'
import { saveDraftPayload, storedKind } from '#renderer/db/stored-kinds.ts'

/**
 * Saves the edits the last page went with before saving them (adapters/unsaved-edits.ts), as
 * its editor would have: at the time they were made, on the version they were made on. A draft
 * since deleted, or held by a run, keeps what it has, as it would have for the editor; one whose
 * save went through as the page went is left as it is. Answers how many were saved.
 */
export async function saveInterruptedEdits(db: CatalogDatabase): Promise<number> {
  let saved = 0
  for (const edit of takeUnsavedEdits()) {
    try {
      const stored = await storedKind(edit.kind).table(db).get(edit.id)
      if (!stored || JSON.stringify(stored.payload) === JSON.stringify(edit.payload)) continue
      await saveDraftPayload(db, edit.kind, edit.id, edit.payload as never, edit.at, edit.based)
      saved++
    } catch {
      // Being sent: what the draft holds stands, as it would have for the editor.
    }
  }
  return saved
}
