import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from '@playwright/test'
import { createTokenStore } from '#node/secrets/token-store.ts'
import { createTeamWorkspace, type TeamWorkspace } from '#node/team/workspace-service.ts'
import { basic, startTeamServer, type Credentials } from '../test/e2e/harness/team-server.ts'
import { createFakeKeychain } from '../test/unit/secrets/fake-keychain.ts'
import { appContext, ensureBuilt, launchChromium, serveRenderer } from './app-browser.ts'
import { log, median, result, type BenchResult } from './result.ts'
import { seedDrafts } from './seed-drafts.ts'

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
 */
const EDITS = 7
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
    return [result('team', 'team-edit-latency', median(edits), median(raw))]
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
        mode: 'readwrite',
      ): {
        objectStore(name: string): {
          get(id: string): PageRequest<Record<string, unknown> & { payload: Record<string, unknown> }>
          put(value: unknown): PageRequest<unknown>
        }
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
    }),
  )
  db.close()
  return now
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
