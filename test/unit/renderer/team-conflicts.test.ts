import 'fake-indexeddb/auto'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { newAppPayload } from '#shared/apps/defaults.ts'
import type { AppCreateRequest } from '#shared/schema/app.ts'
import type { ConflictChoice, ConflictSettled, DraftVersion } from '#shared/team/draft-exchange.ts'

// Main's side of the workspace (src/node/team/draft-exchange.ts: the versions, a settlement refused
// when other versions are there, one version left on every desk) is tested against a server in
// test/unit/team/draft-exchange.test.ts; here main answers as it does, and the page is under test.
const main = vi.hoisted(() => ({
  versions: [] as DraftVersion[],
  asked: [] as ConflictChoice[],
}))
vi.mock('#renderer/adapters/team-workspace.ts', () => ({
  teamWorkspaceInMain: {
    status: async () => ({ state: 'joined', url: 'http://127.0.0.1:5984/autumn', name: 'ana' }),
    versions: async () => main.versions,
    async settle(choice: ConflictChoice): Promise<ConflictSettled> {
      main.asked.push(choice)
      const all = main.versions.map((version) => version.rev)
      const seenAll = all.length === choice.seen.length && all.every((rev) => choice.seen.includes(rev))
      return seenAll ? { ok: true, rev: '3-kept' } : { ok: false, reason: 'changed' }
    },
  },
}))

const { db } = await import('#renderer/db/index.ts')
const { applyArrivals } = await import('#renderer/db/team-exchange.ts')
const { useAppDraftsStore } = await import('#renderer/stores/app-drafts.ts')
const { conflictVersions, settleConflict } = await import('#renderer/stores/team-conflicts.ts')

const ID = 'a7d3c1e0-0000-4000-8000-000000000001'

function withTitles(title: string, subtitle: string): AppCreateRequest {
  const payload: AppCreateRequest = { ...newAppPayload(), name: 'Glow Check' }
  payload.report_config!.report_titles = { title, subtitle }
  return payload
}
const anas = withTitles('Glow report by Ana', 'Based on your photo')
const bens = withTitles('Glow report by Ben', 'From the photo Ben took')

/** An app draft on this desk whose version (Ben's) stands in conflict with Ana's in the workspace. */
async function inConflict() {
  await applyArrivals(
    db,
    {
      arrivals: [
        {
          kind: 'app',
          id: ID,
          rev: '2-ben',
          payload: bens as Record<string, unknown>,
          deleted: false,
          editedBy: 'ben',
          editedAt: 2_000,
          conflicts: 1,
        },
      ],
      last: '9',
    },
    3_000,
  )
  main.versions = [
    {
      rev: '2-ben',
      payload: bens as Record<string, unknown>,
      deleted: false,
      editedBy: 'ben',
      editedAt: 2_000,
    },
    {
      rev: '2-ana',
      payload: anas as Record<string, unknown>,
      deleted: false,
      editedBy: 'ana',
      editedAt: 2_100,
    },
  ]
  const store = useAppDraftsStore()
  await store.load()
  expect(store.drafts.find((draft) => draft.id === ID)?.team?.conflicts).toBe(1)
}

beforeEach(async () => {
  setActivePinia(createPinia())
  main.asked.length = 0
  await Promise.all([db.appDrafts.clear(), db.teamExchange.clear(), db.teamDeletions.clear()])
})

describe('settling an app draft’s conflict from the page (issue #41)', () => {
  it('keeps the fields chosen from each version on the app draft, by this desk, and the apps list shows it; a choice made on other versions writes nothing', async () => {
    await inConflict()
    const versions = await conflictVersions('apps', ID)
    expect(versions.map((version) => version.editedBy)).toEqual(['ben', 'ana'])

    const kept = withTitles('Glow report by Ana', 'From the photo Ben took')
    const choice = { payload: kept as Record<string, unknown>, deleted: false }
    // Compared before Ana's version was there: refused, and nothing written here.
    const refused = await settleConflict('apps', { id: ID, kept: choice, seen: ['2-ben'] })
    expect(refused).toEqual({ ok: false, reason: 'changed' })
    expect((await db.appDrafts.get(ID))?.payload).toEqual(bens)

    const answer = await settleConflict('apps', { id: ID, kept: choice, seen: ['2-ben', '2-ana'] })
    expect(answer).toEqual({ ok: true, rev: '3-kept' })
    // Main was asked about the app's document, not a SKU's.
    expect(main.asked.map((asked) => [asked.kind, asked.id])).toEqual([
      ['app', ID],
      ['app', ID],
    ])
    // The list has read its drafts again: one version, Ana's title with Ben's subtitle, by Ana.
    const [listed] = useAppDraftsStore().drafts
    expect(listed?.payload).toEqual(kept)
    expect(listed?.team).toMatchObject({ rev: '3-kept', conflicts: 0, editedBy: 'ana' })
    expect(listed?.name).toBe('Glow Check')
  })

  it('keeping this desk’s deletion deletes the app draft here and takes it off the apps list', async () => {
    await inConflict()
    // Deleted on this desk while Ben edited it: his version is the draft here, beside the deletion.
    main.versions = [
      main.versions[0]!,
      { rev: '2-ana', payload: {}, deleted: true, editedBy: 'ana', editedAt: 2_100 },
    ]
    const answer = await settleConflict('apps', {
      id: ID,
      kept: { payload: {}, deleted: true },
      seen: ['2-ben', '2-ana'],
    })
    expect(answer.ok).toBe(true)
    expect(await db.appDrafts.get(ID)).toBeUndefined()
    expect(useAppDraftsStore().drafts).toEqual([])
  })
})
