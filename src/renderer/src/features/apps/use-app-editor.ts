import type { AppCreateRequest } from '../../../../shared/schema/app.ts'
import { validateAppDraft } from '../../../../shared/apps/validate-app-draft.ts'
import { appDrafts } from '../../db/app-drafts.ts'
import type { AppDraftRecord } from '../../db/records.ts'
import { useDraftEditor } from '../../ui/use-draft-editor.ts'

/** One app draft under edit: validated as typed, saved automatically, undo through saved versions. */
export function useAppEditor(id: string) {
  return useDraftEditor<AppCreateRequest, AppDraftRecord>(id, appDrafts, validateAppDraft)
}
