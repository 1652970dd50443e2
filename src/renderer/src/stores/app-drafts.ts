import { defineStore } from 'pinia'
import { markRaw, shallowRef } from 'vue'
import { appRequestFileName, appRequestJson } from '#shared/apps/export.ts'
import { appDrafts } from '../db/app-drafts.ts'
import { saveDraftPayload } from '../db/stored-kinds.ts'
import type { EditBase } from '#shared/team/draft-exchange.ts'
import { db } from '../db/index.ts'
import type { AppCreateRequest } from '#shared/schema/app.ts'
import type { AppDraftRecord } from '../db/records.ts'
import { systemClock } from '#shared/sync/system-clock.ts'
import { download } from '../adapters/download.ts'
import { useNotice } from './notice.ts'
import { messageOf } from '#shared/error-message.ts'
import { appLabel } from '../words/app-label.ts'
import { useAppDeletion } from './app-drafts/deletion.ts'

/**
 * The app drafts list: all of them (there are few), and the actions on one draft. Deleting keeps
 * the draft in memory until the next delete, so the snackbar's Undo can put it back exactly
 * (`app-drafts/deletion.ts`).
 */
export const useAppDraftsStore = defineStore('appDrafts', () => {
  const drafts = shallowRef<AppDraftRecord[]>([])
  const loaded = shallowRef(false)
  const failure = shallowRef('')
  const { notice, tell, dismiss } = useNotice()
  /**
   * Set as the editor goes back to the list: the draft whose row takes focus there (once), as the
   * SKU list's does. Not reactive: written once, read once, when the list opens.
   */
  const place = markRaw({ refocus: undefined as string | undefined })

  async function load() {
    try {
      drafts.value = await appDrafts.all()
      failure.value = ''
    } catch (error) {
      failure.value = `The app drafts could not be read: ${messageOf(error)}`
    } finally {
      loaded.value = true
    }
  }

  /** One draft as stored. With `savePayload`, what the editor reads and autosaves through. */
  function get(id: string): Promise<AppDraftRecord | undefined> {
    return appDrafts.get(id)
  }

  function savePayload(id: string, payload: AppCreateRequest, based?: EditBase): Promise<AppDraftRecord> {
    return saveDraftPayload(db, 'apps', id, payload, undefined, based)
  }

  /** A new app: marked untouched new until it is saved (`isUntouchedNew`, db/untouched-new.ts). */
  async function create(): Promise<string> {
    const record = await appDrafts.create(undefined, systemClock.now())
    await load()
    return record.id
  }

  /**
   * Called as the editor is left: a draft made by `create` that was never changed (not even
   * typed into and cleared, which is a save) is deleted, with nothing to undo; any other is kept.
   * Known by its mark, so one made before a reload of its editor is discarded too; one a closed
   * window left is swept at the next start (stores/new-drafts.ts).
   */
  async function discardIfUntouched(id: string): Promise<void> {
    if (await appDrafts.discardUntouchedNew(id).catch(() => false)) await load()
  }

  async function duplicate(id: string): Promise<string | undefined> {
    try {
      const copy = await appDrafts.duplicate(id, systemClock.now())
      await load()
      tell(`${appLabel(copy)} created as a copy.`)
      return copy.id
    } catch (error) {
      tell(`Nothing was copied: ${messageOf(error)}`, 'error')
      return undefined
    }
  }

  /** Downloads a draft's request body as JSON, named after the app. */
  async function exportDraft(id: string) {
    try {
      const record = await appDrafts.get(id)
      if (!record) throw new Error('this app draft no longer exists')
      const name = appRequestFileName(record.name)
      download(new File([appRequestJson(record.payload)], name, { type: 'application/json' }))
      tell(`${appLabel(record)} exported to ${name}.`)
    } catch (error) {
      tell(`Export failed: ${messageOf(error)}`, 'error')
    }
  }

  return {
    drafts,
    loaded,
    failure,
    notice,
    place,
    load,
    get,
    savePayload,
    create,
    discardIfUntouched,
    duplicate,
    ...useAppDeletion({ notice, tell, dismiss, load }),
    exportDraft,
    tell,
    dismiss,
  }
})
