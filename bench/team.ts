import { mkdtemp, rm } from 'node:fs/promises'
import { setTimeout } from 'node:timers/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from '@playwright/test'
import { draftColumns } from '#shared/draft-columns.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { newSkuPayload } from '#shared/schema/sku-template.ts'
import { createTokenStore } from '#node/secrets/token-store.ts'
import { createTeamWorkspace, type TeamWorkspace } from '#node/team/workspace-service.ts'
import { basic, startTeamServer, type Credentials } from '../test/e2e/harness/team-server.ts'
import { createFakeKeychain } from '../test/unit/secrets/fake-keychain.ts'
import { appContext, ensureBuilt, launchChromium, serveRenderer } from './app-browser.ts'
import { log, median, result, type BenchResult } from './result.ts'
import { seedDrafts, seededDraft } from './seed-drafts.ts'

/**
 * A team workspace (issue #41), two desks on one loopback CouchDB-compatible server (the tests'
 * team server), each desk the built renderer in Chromium with main's real team workspace service
 * (replica on LevelDB in a folder of its own) behind its bridge.
 *
 * - `team-edit-latency`: one edit on desk A (written in its IndexedDB as the editor's save writes
 *   it) until desk B's list shows it: A's exchange shares it, the replicas replicate through the
 *   server, B's exchange applies it and the list reads it. Baseline: the same trip by hand, a raw
 *   `PUT` of the document to the server while a `_changes` long poll waits for it. Medians of
 *   EDITS edits. Goal: under 2,000 ms.
 * - `team-first-pull`: a new desk joins a workspace of PULLED drafts (100,000; BENCH_TEAM_DRAFTS
 *   sets another number), from the join until its database holds them all: replication into the
 *   desk's replica, then the page's exchange into IndexedDB. Baseline: reading the same database's
 *   `_changes` (500 a request), making the same records (`draftColumns`, as the exchange does) and
 *   writing them into the page's IndexedDB directly, 500 a transaction. Goal: a ratio of 1.5.
 *   `team-first-pull-replica`: the part of it until the replica held them all (the second store).
 */
const EDITS = 7
const PULLED = Number(process.env.BENCH_TEAM_DRAFTS ?? 100_000)
/** Documents a `_bulk_docs` request seeds; drafts a `_changes` request or a baseline transaction takes. */
const SEED_CHUNK = 2_000
const PAGE = 500
const ANA: Credentials = { username: 'ana', password: 'ana-bench-pass' }
const BEN: Credentials = { username: 'ben', password: 'ben-bench-pass' }

interface Desk {
  page: Page
  team: TeamWorkspace
  close(): Promise<void>
}

export async function teamScenario(): Promise<BenchResult[]> {
  ensureBuilt()
  const server = await startTeamServer()
  const renderer = await serveRenderer()
  const browser = await launchChromium()
  const desks: Desk[] = []
  try {
    const workspace = await server.createWorkspace('autumn', [ANA, BEN])
    const ana = await openDesk(browser, renderer.url, workspace, ANA)
    desks.push(ana)
    const ben = await openDesk(browser, renderer.url, workspace, BEN)
    desks.push(ben)

    // One draft, made on Ana's desk and arrived on Ben's, is what each edit changes.
    const { id } = (await seedDrafts(ana.page, 1))[0]!
    await ana.page.reload()
    await ben.page.goto(`${renderer.url}#/skus`)
    await ben.page.locator(`[role="row"][data-id="${id}"]`).waitFor({ timeout: 60_000 })

    const edits: number[] = []
    for (let edit = 0; edit < EDITS; edit++)
      edits.push(await editSeen(ana.page, ben.page, id, `Bench edit ${edit}`))
    const raw: number[] = []
    for (let edit = 0; edit < EDITS; edit++) raw.push(await rawRoundTrip(workspace, `raw-${edit}`))
    log(
      `team-edit-latency: ${edits.map(Math.round).join(', ')} ms; raw PUT and _changes: ${raw.map(Math.round).join(', ')} ms`,
    )

    const pulled = await server.createWorkspace('catalogue', [ANA, BEN])
    log(`team-first-pull: seeding ${PULLED.toLocaleString('en-US')} drafts…`)
    await seedWorkspace(pulled, PULLED)
    const first = await firstPull(browser, renderer.url, pulled)
    desks.push(first.desk)
    const direct = await directPull(browser, renderer.url, pulled)
    log(
      `team-first-pull: ${Math.round(first.total)} ms (the replica ${Math.round(first.replica)} ms), directly ${Math.round(direct)} ms`,
    )
    return [
      result('team', 'team-edit-latency', median(edits), median(raw)),
      result('team', 'team-first-pull', first.total, direct),
      result('team', 'team-first-pull-replica', first.replica, direct),
    ]
  } finally {
    for (const desk of desks) await desk.close()
    await browser.close()
    await renderer.close()
    await server.close()
  }
}

/** A desk: main's team workspace service over a data folder of its own, joined, and its window. */
async function openDesk(browser: Browser, url: string, workspace: string, who: Credentials): Promise<Desk> {
  const dataDir = await mkdtemp(join(tmpdir(), 'catalog-desk-bench-team-'))
  const team = createTeamWorkspace({
    dataDir,
    tokens: createTokenStore({ service: 'Catalog Desk bench', keychain: createFakeKeychain().backend }),
  })
  const joined = await team.join(workspace, who.username, who.password)
  if (!joined.ok) throw new Error(`${who.username} could not join the workspace: ${joined.message}`)
  const context = await appContext(browser, {
    getTeamWorkspace: async () => team.status(),
    shareTeamDrafts: ((shares) => team.share(shares)) as (...args: never[]) => Promise<unknown>,
    teamArrivals: ((since, limit) => team.arrivals(since, limit)) as (...args: never[]) => Promise<unknown>,
  })
  const page = await context.newPage()
  await page.goto(`${url}#/skus`)
  // The app has made its database (a count before would make an empty one).
  await page.getByRole('heading', { name: 'SKUs', level: 1 }).waitFor()
  return {
    page,
    team,
    async close() {
      await context.close()
      await team.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** The workspace as another desk left it: `count` drafts, written by Ana, `_bulk_docs` at a time. */
async function seedWorkspace(workspace: string, count: number): Promise<void> {
  const headers = { Authorization: basic(ANA), 'Content-Type': 'application/json' }
  for (let start = 0; start < count; start += SEED_CHUNK) {
    const docs = Array.from({ length: Math.min(SEED_CHUNK, count - start) }, (_, k) => {
      const { id, productName, brand, barcode, category, subCategory, status, updatedAt } = seededDraft(
        start + k,
      )
      return {
        _id: `sku:${id}`,
        type: 'sku',
        payload: { ...TEMPLATE, productName, brand, barcode, category, subCategory, status },
        deleted: false,
        editedBy: ANA.username,
        editedAt: updatedAt,
      }
    })
    const answer = await fetch(`${workspace}/_bulk_docs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ docs }),
    })
    if (!answer.ok) throw new Error(`Seeding the workspace: HTTP ${answer.status}`)
  }
}

const TEMPLATE = newSkuPayload()

/** How many SKU drafts the page's database holds. */
const draftCount = (page: Page) => page.evaluate(countDrafts)

/** A new desk joins and pulls: ms until its replica, then its database, held every draft. */
async function firstPull(browser: Browser, url: string, workspace: string) {
  const started = performance.now()
  const desk = await openDesk(browser, url, workspace, BEN)
  const inReplica = replicaCounter(desk.team)
  let replica = 0
  // Sampled every second: the pull takes minutes at 100,000 drafts.
  for (let count = 0, sample = 0; count < PULLED; count = await draftCount(desk.page), sample++) {
    if (!replica && (await inReplica()) >= PULLED) replica = performance.now() - started
    if (sample % 15 === 0) log(`team-first-pull: ${count.toLocaleString('en-US')} drafts on the new desk…`)
    await setTimeout(1_000)
  }
  const total = performance.now() - started
  return { desk, total, replica: replica || total }
}

/**
 * How many drafts the desk's replica holds, counted on from the last call (a pull only adds): its
 * arrivals, a batch at a time, as main hands them to the page.
 */
function replicaCounter(team: TeamWorkspace): () => Promise<number> {
  let since = '0'
  let count = 0
  return async () => {
    for (;;) {
      const batch = await team.arrivals(since, PAGE)
      if (batch.arrivals.length + batch.setAside.length === 0) return count
      count += batch.arrivals.length
      since = batch.last
    }
  }
}

/** The baseline: `_changes` read, the same records made and written into a fresh page's IndexedDB. */
async function directPull(browser: Browser, url: string, workspace: string): Promise<number> {
  const context = await appContext(browser)
  try {
    const page = await context.newPage()
    await page.goto(`${url}#/skus`)
    await page.getByText('No SKU drafts yet').waitFor()
    const headers = { Authorization: basic(BEN) }
    const started = performance.now()
    let since = '0'
    for (;;) {
      const address = `${workspace}/_changes?include_docs=true&limit=${PAGE}&since=${encodeURIComponent(since)}`
      const answer = (await (await fetch(address, { headers })).json()) as Changes
      if (answer.results.length === 0) break
      const now = Date.now()
      const records = answer.results.map(({ id, doc }) => ({
        id: id.slice('sku:'.length),
        payload: doc.payload,
        createdAt: now,
        updatedAt: now,
        sync: {},
        standing: [],
        ...draftColumns(doc.payload),
      }))
      await page.evaluate(writeRecords, records)
      since = String(answer.last_seq)
    }
    const took = performance.now() - started
    if ((await draftCount(page)) < PULLED)
      throw new Error('The baseline wrote fewer drafts than the workspace holds')
    return took
  } finally {
    await context.close()
  }
}

interface Changes {
  results: Array<{ id: string; doc: { payload: Sku } }>
  last_seq: string | number
}

/** Writes an edit into desk A's database as a save does, and answers the ms until B's row shows it. */
async function editSeen(a: Page, b: Page, id: string, name: string): Promise<number> {
  const seen = b.evaluate(rowShows, { id, name })
  const at = await a.evaluate(writeName, { id, name })
  return (await seen) - at
}

/** The same trip by hand: a `_changes` long poll waiting, a raw PUT, until the poll answers. */
async function rawRoundTrip(workspace: string, id: string): Promise<number> {
  const headers = { Authorization: basic(ANA), 'Content-Type': 'application/json' }
  const info = (await (await fetch(workspace, { headers })).json()) as { update_seq: string | number }
  const since = encodeURIComponent(String(info.update_seq))
  const waiting = fetch(`${workspace}/_changes?feed=longpoll&since=${since}&include_docs=true`, { headers })
  const started = performance.now()
  await fetch(`${workspace}/sku:${id}`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({
      type: 'sku',
      payload: { productName: id },
      deleted: false,
      editedBy: 'ana',
      editedAt: Date.now(),
    }),
  })
  await (await waiting).json()
  return performance.now() - started
}

// The functions below run in the page and are serialised, so each is self-contained. The node
// programme has no DOM types: the little they use is typed here by hand.
interface PageRequest<T> {
  result: T
  onsuccess: (() => void) | null
  onerror: (() => void) | null
}
interface PageGlobals {
  indexedDB: {
    open(name: string): PageRequest<{
      transaction(
        store: string,
        mode: 'readwrite' | 'readonly',
      ): {
        objectStore(name: string): {
          get(id: string): PageRequest<Record<string, unknown> & { payload: Record<string, unknown> }>
          put(value: unknown): PageRequest<unknown>
          count(): PageRequest<number>
        }
        oncomplete: (() => void) | null
        onerror: (() => void) | null
      }
      close(): void
    }>
  }
  document: { querySelector(selector: string): { textContent: string | null } | null; body: unknown }
  MutationObserver: new (callback: () => void) => {
    observe(target: unknown, options: Record<string, boolean>): void
    disconnect(): void
  }
}

/** In desk A's page: the draft's name changed in its database as the editor's save writes it; when. */
async function writeName({ id, name }: { id: string; name: string }): Promise<number> {
  const g = globalThis as unknown as PageGlobals
  const settled = <T>(request: PageRequest<T>) =>
    new Promise<T>((resolve, reject) => {
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(new Error('IndexedDB refused'))
    })
  const db = await settled(g.indexedDB.open('catalog-desk'))
  const drafts = db.transaction('skuDrafts', 'readwrite').objectStore('skuDrafts')
  const draft = await settled(drafts.get(id))
  const now = Date.now()
  await settled(
    drafts.put({
      ...draft,
      payload: { ...draft.payload, productName: name },
      productName: name,
      updatedAt: now,
      // Edited here since the workspace had it, as the app's own writes mark it (db/team-waiting.ts).
      teamWaiting: 1,
    }),
  )
  db.close()
  return now
}

/** In a page: the SKU drafts its database holds. */
async function countDrafts(): Promise<number> {
  const g = globalThis as unknown as PageGlobals
  const settled = <T>(request: PageRequest<T>) =>
    new Promise<T>((resolve, reject) => {
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(new Error('IndexedDB refused'))
    })
  const db = await settled(g.indexedDB.open('catalog-desk'))
  const count = await settled(db.transaction('skuDrafts', 'readonly').objectStore('skuDrafts').count())
  db.close()
  return count
}

/** In the baseline's page: one transaction of raw puts. */
async function writeRecords(records: unknown[]): Promise<void> {
  const g = globalThis as unknown as PageGlobals
  const opening = g.indexedDB.open('catalog-desk')
  const db = await new Promise<typeof opening.result>((resolve, reject) => {
    opening.onsuccess = () => resolve(opening.result)
    opening.onerror = () => reject(new Error('IndexedDB refused'))
  })
  const tx = db.transaction('skuDrafts', 'readwrite')
  const drafts = tx.objectStore('skuDrafts')
  for (const record of records) drafts.put(record)
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve()
    tx.onerror = () => reject(new Error('IndexedDB refused'))
  })
  db.close()
}

/** In desk B's page: when its list's row of the draft shows `name`. */
function rowShows({ id, name }: { id: string; name: string }): Promise<number> {
  const g = globalThis as unknown as PageGlobals
  return new Promise<number>((resolve) => {
    const shows = () => g.document.querySelector(`[role="row"][data-id="${id}"]`)?.textContent?.includes(name)
    const observer = new g.MutationObserver(() => {
      if (!shows()) return
      observer.disconnect()
      resolve(Date.now())
    })
    observer.observe(g.document.body, { childList: true, subtree: true, characterData: true })
  })
}
