import { shallowRef } from 'vue'
import type { ProfileView } from '#shared/profile.ts'
import { draftKind } from '#shared/sync/kinds.ts'
import { skuDrafts, syncRuns } from '../../db/index.ts'
import type { UpdatePreview, UpdatesPreflight } from '../../db/sync-runs.ts'
import { updateGate } from './profile-targets.ts'

/** How many updates the pre-flight shows with their changes, and how many SKUs found gone it names. */
const UPDATE_PREVIEWS = 50
const GONE_SHOWN = 20

/** A SKU an update found no longer on the platform, as the Sync page names it. */
export interface GoneSku {
  id: string
  label: string
  /** Why: the outcome's words, with what the service said. */
  message: string | undefined
}

/**
 * The updates on offer at the active destination, as the pre-flight shows them: SKUs created
 * there and changed since, by what can be done with them (of the scope's drafts, when one is
 * chosen), the first few with what each changes, and the SKUs an update found gone there.
 */
export function useUpdatesOffer() {
  const updates = shallowRef<UpdatesPreflight>()
  /** The first updates "Update" would send, each with what it changes, for the pre-flight. */
  const updatePreviews = shallowRef<UpdatePreview[]>([])
  /** SKUs an update found no longer on the platform at the active destination (the first few). */
  const gone = shallowRef<GoneSku[]>([])

  /** Reads the updates on offer at `active`'s destination, their previews and the SKUs found gone. */
  async function read(active: ProfileView | undefined, ids: readonly string[] | undefined) {
    if (!active) {
      updates.value = undefined
      updatePreviews.value = []
      gone.value = []
      return
    }
    const gate = updateGate(active)
    const found = await syncRuns.updatesPreflight(active.destination, gate, ids)
    updates.value = found
    updatePreviews.value = found.ready
      ? await syncRuns.updatePreviews(active.destination, gate, UPDATE_PREVIEWS, ids)
      : []
    gone.value = found.gone ? await goneSkus(active.destination) : []
  }

  return { updates, updatePreviews, gone, read }
}

/** The SKUs found gone at `destination`, the first `GONE_SHOWN`, with their names. */
async function goneSkus(destination: string): Promise<GoneSku[]> {
  const ids = (await syncRuns.goneAt(destination)).slice(0, GONE_SHOWN)
  const records = await Promise.all(ids.map((id) => skuDrafts.get(id)))
  return records.flatMap((record) =>
    record
      ? [
          {
            id: record.id,
            label: draftKind('skus').label(record.payload, record.id),
            message: record.sync[destination]?.update?.message,
          },
        ]
      : [],
  )
}
