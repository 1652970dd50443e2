import {
  assetRefs,
  assetRefSchema,
  MAX_ASSETS_A_CHECK,
  type AssetRef,
} from '#shared/asset-checks/asset-refs.ts'
import type { AssetCheck, AssetStatus } from '#shared/asset-checks/results.ts'
import type { Sku } from '#shared/schema/sku.ts'
import type { DraftCheck } from '#renderer/db/asset-checks.ts'
import type { AssetCheckRecord } from '#renderer/db/records.ts'

/** What a check of many drafts needs: where drafts are read, files checked and findings kept. */
export interface AssetCheckPorts {
  /** The drafts as stored now, in the order asked; undefined for one deleted since. */
  read(ids: readonly string[]): Promise<Array<{ id: string; payload: Sku } | undefined>>
  /** Main's check of at most MAX_ASSETS_A_CHECK files (the IPC channel `checkAssets`). */
  check(refs: AssetRef[]): Promise<AssetCheck[]>
  /** Keeps drafts' checks, replacing their earlier ones. */
  save(checks: DraftCheck[]): Promise<AssetCheckRecord[]>
}

export interface AssetCheckRunOptions {
  /** Stops the run between two requests to main: what was checked by then is kept. */
  signal?: AbortSignal
  /** Drafts whose check is kept, of all asked. */
  onProgress?: (done: number, total: number) => void
}

/** How a check of many drafts went: how many drafts it kept a check for, by their worst status. */
export interface AssetCheckTally extends Record<AssetStatus, number> {
  /** Drafts asked for that no longer existed. */
  gone: number
  /** Whether it was stopped before the end (the drafts not counted keep their earlier check). */
  stopped: boolean
}

/** Drafts read at a time. */
const DRAFTS_A_READ = 200
/**
 * Files asked of main in one request: a few rounds of main's concurrency (4), so a Cancel waits for
 * at most these to be read, and progress moves at least this often. Far under MAX_ASSETS_A_CHECK.
 */
export const FILES_A_REQUEST = Math.min(16, MAX_ASSETS_A_CHECK)

/** A file as checked: one address named as one kind of field (judged differently per kind). */
const keyOf = (ref: AssetRef) => `${ref.kind} ${ref.url}`

/**
 * What main never fetches, said without asking it: an address that is not http(s), or too long.
 * Main refuses the whole call for one such file (its argument schema), which would sink the others.
 */
function refusedHere(ref: AssetRef): AssetCheck | undefined {
  if (assetRefSchema().safeParse(ref).success) return undefined
  return {
    url: ref.url,
    kind: ref.kind,
    status: 'error',
    problems: [
      {
        severity: 'error',
        code: 'refused-address',
        message: 'It is not a web address (http or https, at most 2,048 characters): nothing was downloaded.',
      },
    ],
  }
}

/**
 * Checks the files drafts name, in requests of FILES_A_REQUEST, each file once however many
 * drafts name it (main's session cache then spares the download of one checked before, asking the
 * server whether it changed). `known` holds the answers so far, by kind and address.
 */
export class AssetCheckRequests {
  private readonly known = new Map<string, AssetCheck>()
  private readonly check: AssetCheckPorts['check']

  constructor(check: AssetCheckPorts['check']) {
    this.check = check
  }

  /** The answers for `refs`, if each was answered already. */
  answers(refs: readonly AssetRef[]): AssetCheck[] | undefined {
    const found = refs.map((ref) => this.known.get(keyOf(ref)))
    return found.every((check) => check !== undefined) ? (found as AssetCheck[]) : undefined
  }

  /** Of `refs`, the files still to ask main about, each once. */
  unanswered(refs: readonly AssetRef[]): AssetRef[] {
    const wanted = new Map<string, AssetRef>()
    for (const ref of refs) {
      const key = keyOf(ref)
      if (this.known.has(key) || wanted.has(key)) continue
      const refused = refusedHere(ref)
      if (refused) this.known.set(key, refused)
      else wanted.set(key, ref)
    }
    return [...wanted.values()]
  }

  /** Asks main about these files (at most MAX_ASSETS_A_CHECK), keeping the answers. */
  async ask(refs: AssetRef[]): Promise<void> {
    if (!refs.length) return
    const checks = await this.check(refs)
    refs.forEach((ref, at) => this.known.set(keyOf(ref), checks[at]!))
  }

  /** The answers for one draft's files, asking main for those not known. */
  async of(refs: readonly AssetRef[]): Promise<AssetCheck[]> {
    const missing = this.unanswered(refs)
    for (let at = 0; at < missing.length; at += MAX_ASSETS_A_CHECK)
      await this.ask(missing.slice(at, at + MAX_ASSETS_A_CHECK))
    return this.answers(refs)!
  }
}

/**
 * "Check assets" for many drafts: reads them a few hundred at a time, asks main about the files
 * they name (each once a run), and keeps each draft's check as soon as all its files are answered,
 * so a Cancel, a failure or a closed window loses at most one request's work. A draft edited
 * while the run goes is checked as it was read.
 */
export async function checkDraftAssets(
  ids: readonly string[],
  ports: AssetCheckPorts,
  { signal, onProgress }: AssetCheckRunOptions = {},
): Promise<AssetCheckTally> {
  const tally: AssetCheckTally = { ok: 0, warning: 0, error: 0, gone: 0, stopped: false }
  const requests = new AssetCheckRequests(ports.check)
  let done = 0
  onProgress?.(0, ids.length)
  for (let start = 0; start < ids.length; start += DRAFTS_A_READ) {
    const drafts = await ports.read(ids.slice(start, start + DRAFTS_A_READ))
    let waiting: Array<{ draftId: string; refs: AssetRef[] }> = []
    for (const draft of drafts) {
      if (draft) waiting.push({ draftId: draft.id, refs: assetRefs(draft.payload) })
      else {
        tally.gone++
        done++
      }
    }
    const missing = requests.unanswered(waiting.flatMap((draft) => draft.refs))
    for (let at = 0; ; at += FILES_A_REQUEST) {
      // Each draft whose files are all answered is kept now, before the next request.
      const ready: DraftCheck[] = []
      waiting = waiting.filter((draft) => {
        const checks = requests.answers(draft.refs)
        if (checks) ready.push({ ...draft, checks })
        return !checks
      })
      if (ready.length) {
        for (const record of await ports.save(ready)) tally[record.status]++
        done += ready.length
        onProgress?.(done, ids.length)
      }
      if (at >= missing.length) break
      if (signal?.aborted) return { ...tally, stopped: true }
      await requests.ask(missing.slice(at, at + FILES_A_REQUEST))
    }
    if (signal?.aborted && start + DRAFTS_A_READ < ids.length) return { ...tally, stopped: true }
  }
  return tally
}
