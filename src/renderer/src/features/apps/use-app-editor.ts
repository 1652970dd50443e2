import type { AppCreateRequest } from '#shared/schema/app.ts'
import { validateAppDraft } from '#shared/apps/validate-app-draft.ts'
import type { AppDraftRecord } from '#renderer/db/records.ts'
import { useAppDraftsStore } from '#renderer/stores/app-drafts.ts'
import { useDraftEditor } from '#renderer/composables/use-draft-editor.ts'

/** One app draft under edit: validated as typed, saved automatically, undo through saved versions. */
export function useAppEditor(id: string) {
  return useDraftEditor<AppCreateRequest, AppDraftRecord>('apps', id, useAppDraftsStore(), validateAppDraft)
}
