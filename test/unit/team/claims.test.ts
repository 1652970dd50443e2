import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { claimId, RunClaims } from '#node/team/claims.ts'
import { sentId, ServerSendRecords } from '#node/team/send-records.ts'
import { ServerDocuments } from '#node/team/server-documents.ts'
import type { RunOutcome } from '#shared/team/send-records.ts'
import { FORMAT_ID, TEAM_FORMAT } from '#shared/team/shared-documents.ts'
import type { ClaimedDraft, DraftToClaim } from '#shared/team/claims.ts'
import { basic, startTeamServer, type Credentials, type TeamServer } from '../../e2e/harness/team-server.ts'

// Claims (issue #42) against a CouchDB-compatible server on loopback: the server alone decides who
// holds a draft on a destination, and judges a claim's expiry by its own clock.
const ANA: Credentials = { username: 'ana', password: 'ana-pass' }
const BEN: Credentials = { username: 'ben', password: 'ben-pass' }
const PRODUCTION = 'https://api.example.test'
const MINUTE = 60_000

let server: TeamServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

async function workspace(options?: { clockSkewMs?: number }) {
  server = await startTeamServer(options)
  return server.createWorkspace('autumn', [ANA, BEN])
}

const drafts = (count: number, from = 0): DraftToClaim[] =>
  Array.from({ length: count }, (_, n) => ({
    kind: 'sku',
    id: `draft-${from + n}`,
    position: from + n,
    label: `400000000000${from + n}`,
  }))

function runOf(url: string, who: Credentials, run: string, destination = PRODUCTION, ttlMs?: number) {
  return new RunClaims({ url, ...who }, { owner: who.username, run, destination }, ttlMs)
}

const ids = (claimed: readonly ClaimedDraft[]) => claimed.map((draft) => draft.id).sort()

function outcome(
  draft: string,
  position: number,
  state: RunOutcome['state'],
  more: Partial<RunOutcome> = {},
): RunOutcome {
  return {
    kind: 'sku',
    draft,
    position,
    label: `040000000000${position}`,
    state,
    at: 1_790_000_000_000 + position,
    sent: { skuId: draft, productName: `Rouge ${position}` },
    ...more,
  }
}

describe('claims on drafts, taken on the workspace’s server (issue #42)', () => {
  it('a draft another desk’s run holds is not taken, and that desk is named; the others are', async () => {
    const url = await workspace()
    const ana = runOf(url, ANA, 'run-a')
    expect(ids((await ana.take(drafts(3))).taken)).toEqual(['draft-0', 'draft-1', 'draft-2'])

    const ben = runOf(url, BEN, 'run-b')
    const answer = await ben.take(drafts(3, 1))
    expect(ids(answer.taken)).toEqual(['draft-3'])
    expect(answer.held.map(({ id, owner, run, expired }) => ({ id, owner, run, expired }))).toEqual([
      { id: 'draft-1', owner: 'ana', run: 'run-a', expired: false },
      { id: 'draft-2', owner: 'ana', run: 'run-a', expired: false },
    ])

    // Another destination is another claim.
    const staging = runOf(url, BEN, 'run-c', 'https://staging.example.test')
    expect(ids((await staging.take(drafts(1, 1))).taken)).toEqual(['draft-1'])
  })

  it('when two desks claim the same drafts at the same moment, the server gives each draft to one', async () => {
    const url = await workspace()
    const ana = runOf(url, ANA, 'run-a')
    const ben = runOf(url, BEN, 'run-b')
    const both = drafts(300)
    const [a, b] = await Promise.all([ana.take(both), ben.take(both)])

    const taken = [...ids(a.taken), ...ids(b.taken)].sort()
    expect(taken).toEqual(ids(both))
    // Each desk is told who holds what it did not get.
    expect(ids(a.held)).toEqual(ids(b.taken))
    expect(ids(b.held)).toEqual(ids(a.taken))
    expect(new Set(a.held.map((held) => held.owner))).toEqual(new Set(a.held.length ? ['ben'] : []))
  })

  it('judges a claim’s expiry by the server’s clock, not the desk’s', async () => {
    // The server's clock is an hour behind this machine's: by this machine's, Ana's claim expired
    // long ago; by the server's, it holds for two minutes.
    const url = await workspace({ clockSkewMs: -60 * MINUTE })
    const ana = runOf(url, ANA, 'run-a', PRODUCTION, 2 * MINUTE)
    const { serverNow } = await ana.take(drafts(1))
    expect(Date.now() - serverNow).toBeGreaterThan(59 * MINUTE)

    const held = (await runOf(url, BEN, 'run-b').take(drafts(1))).held[0]!
    expect(held).toMatchObject({ owner: 'ana', expired: false })
    expect(held.expiresAt - serverNow).toBe(2 * MINUTE)

    // A run that stopped renewing: past its expiry on the server, it stopped, and its claim is
    // taken over (by the server's clock: by this machine's, the first claim had run out too).
    const stopped = runOf(url, ANA, 'run-s', PRODUCTION, 0)
    await stopped.take(drafts(1, 1))
    const ben = await runOf(url, BEN, 'run-b').take(drafts(1, 1))
    expect(ids(ben.taken)).toEqual(['draft-1'])
    expect(ben.held).toEqual([])
    expect(ben.stopped).toMatchObject([
      { id: 'draft-1', owner: 'ana', run: 'run-s', position: 1, expired: true },
    ])
  })

  it('a run that stopped mid-send: its claims, run out, are taken over once, and what it left no record of is recorded as not known', async () => {
    const url = await workspace()
    // Ana's run claimed three drafts, recorded one outcome, and stopped (its claims never renewed).
    const ana = runOf(url, ANA, 'run-a', PRODUCTION, 0)
    await ana.take(drafts(3))
    await ana.record([outcome('draft-0', 0, 'synced', { remoteId: 'plat-0' })])

    // Ben and Carla's runs (Carla as Ben's second desk) take them over at the same moment: the
    // server gives each draft to one.
    const [benRun, carlaRun] = [runOf(url, BEN, 'run-b'), runOf(url, BEN, 'run-c')]
    const [ben, carla] = await Promise.all([benRun.take(drafts(3)), carlaRun.take(drafts(3))])
    expect([...ids(ben.taken), ...ids(carla.taken)].sort()).toEqual(['draft-0', 'draft-1', 'draft-2'])
    // Taken over, all three; stopped with no outcome recorded, two.
    expect([...ids(ben.stopped), ...ids(carla.stopped)].sort()).toEqual(['draft-1', 'draft-2'])
    const recorded = [...ben.recorded, ...carla.recorded].sort((a, b) => a.position - b.position)
    expect(recorded).toMatchObject([
      { draft: 'draft-0', desk: 'ana', run: 'run-a', state: 'synced', remoteId: 'plat-0' },
      { draft: 'draft-1', desk: 'ana', run: 'run-a', position: 1, state: 'unknown', recordedBy: 'ben' },
      { draft: 'draft-2', desk: 'ana', run: 'run-a', position: 2, state: 'unknown', recordedBy: 'ben' },
    ])
    expect(recorded[1]!.message).toBe(
      'ana’s desk stopped while it held this draft to send (its claim ran out): whether it was created is not known.',
    )
    expect(recorded[1]!.recordedBy).toBe('ben')
    // Ana's run, resumed on her desk once theirs are done, hears what was recorded for it
    // elsewhere, and nothing of its own account.
    await Promise.all([benRun.release(), carlaRun.release()])
    const resumed = await runOf(url, ANA, 'run-a').take(drafts(3))
    expect(resumed.recorded.map((record) => record.draft).sort()).toEqual(['draft-1', 'draft-2'])
  })

  it('an update run that stopped mid-send leaves its drafts created: nothing is recorded over their creation', async () => {
    const url = await workspace()
    const creation = runOf(url, ANA, 'run-create')
    await creation.take(drafts(2))
    await creation.record([0, 1].map((n) => outcome(`draft-${n}`, n, 'synced', { remoteId: `plat-${n}` })))
    await creation.release()
    // Ana's update run of the two stopped: its claims ran out, with no outcome recorded.
    await runOf(url, ANA, 'run-update', PRODUCTION, 0).take(drafts(2))

    const ben = await runOf(url, BEN, 'run-b').take(drafts(2))
    expect(ben.stopped).toEqual([])
    expect(ben.recorded.map(({ draft, run, state }) => ({ draft, run, state }))).toEqual([
      { draft: 'draft-0', run: 'run-create', state: 'synced' },
      { draft: 'draft-1', run: 'run-create', state: 'synced' },
    ])

    // Created before the desk joined, so with no record here: the update run's claim says what it
    // was, and nothing is recorded for it either (the review's catch).
    const update = { owner: 'ana', run: 'run-update-2', destination: PRODUCTION, action: 'update' as const }
    await new RunClaims({ url, ...ANA }, update, 0).take(drafts(1, 5))
    const again = await runOf(url, BEN, 'run-b2').take(drafts(1, 5))
    expect(again.taken.map((draft) => draft.id)).toEqual(['draft-5'])
    expect(again.stopped).toEqual([])
    expect(again.recorded).toEqual([])
  })

  it('renewing moves the expiry on; a claim taken over meanwhile is answered as lost', async () => {
    const url = await workspace()
    const ana = runOf(url, ANA, 'run-a')
    const { serverNow } = await ana.take(drafts(2))
    const read = async (draft: ClaimedDraft) =>
      (await (
        await fetch(`${url}/${encodeURIComponent(claimId(PRODUCTION, draft))}`, {
          headers: { Authorization: basic(BEN) },
        })
      ).json()) as { _rev: string; expiresAt: number; owner: string }

    // Ben's desk settles draft-1 (say Ana's run was taken for stopped) and writes over her claim.
    const over = await read(drafts(1, 1)[0]!)
    await fetch(`${url}/${encodeURIComponent(claimId(PRODUCTION, drafts(1, 1)[0]!))}`, {
      method: 'PUT',
      headers: { Authorization: basic(BEN), 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...over, owner: 'ben', run: 'run-b' }),
    })

    expect(ids(await ana.renew())).toEqual(['draft-1'])
    expect((await read(drafts(1)[0]!)).expiresAt).toBeGreaterThanOrEqual(serverNow + 2 * MINUTE)
    expect(ana.size).toBe(1)
  })

  it('released, the drafts can be claimed by another desk; a run whose answer was lost takes its own again', async () => {
    const url = await workspace()
    const ana = runOf(url, ANA, 'run-a')
    await ana.take(drafts(2))
    // The same run asking again (its first answer lost on the way) holds them, as it does.
    expect(ids((await runOf(url, ANA, 'run-a').take(drafts(2))).taken)).toEqual(['draft-0', 'draft-1'])

    await ana.release(drafts(1))
    expect(ids((await runOf(url, BEN, 'run-b').take(drafts(2))).taken)).toEqual(['draft-0'])
    await ana.release()
    expect(ana.size).toBe(0)
    expect(ids((await runOf(url, BEN, 'run-c').take(drafts(2))).taken)).toEqual(['draft-1'])
  })

  it('a run’s outcomes are on the server before its claims are released: the next desk to claim the drafts reads them', async () => {
    const url = await workspace()
    const ana = runOf(url, ANA, 'run-a')
    await ana.take(drafts(3))
    const outcomes: RunOutcome[] = [
      outcome('draft-0', 0, 'synced', { remoteId: 'plat-0' }),
      outcome('draft-1', 1, 'rejected', { message: 'barcode: not a GTIN' }),
      outcome('draft-2', 2, 'unknown', { message: 'No answer' }),
    ]
    await ana.record(outcomes)
    await ana.release()

    const ben = runOf(url, BEN, 'run-b')
    const answer = await ben.take(drafts(4))
    expect(ids(answer.taken)).toEqual(['draft-0', 'draft-1', 'draft-2', 'draft-3'])
    expect(answer.recorded.sort((a, b) => a.position - b.position)).toEqual(
      outcomes.map((sent) => ({ ...sent, destination: PRODUCTION, desk: 'ana', run: 'run-a' })),
    )
    // Ben's run sends draft-1 again (edited since): its record is written over Ana's, and a run
    // never hears its own records as another's.
    await ben.record([outcome('draft-1', 0, 'synced', { remoteId: 'plat-1' })])
    await ben.release()
    const later = runOf(url, ANA, 'run-c')
    const again = await later.take(drafts(2))
    await later.release()
    expect(again.recorded.map(({ draft, desk, run, state }) => ({ draft, desk, run, state }))).toEqual([
      { draft: 'draft-0', desk: 'ana', run: 'run-a', state: 'synced' },
      { draft: 'draft-1', desk: 'ben', run: 'run-b', state: 'synced' },
    ])
    const ownAgain = runOf(url, BEN, 'run-b')
    expect((await ownAgain.take(drafts(2))).recorded.map((record) => record.run)).toEqual(['run-a'])
  })

  it('a record written elsewhere since the run read it is read again and written over, once', async () => {
    const url = await workspace()
    const ana = runOf(url, ANA, 'run-a')
    await ana.take(drafts(1))
    // Another desk's record of it lands between Ana's claim and her outcome (a document written by
    // hand, as no desk of the app writes a record it does not hold the claim of).
    const id = sentId(PRODUCTION, drafts(1)[0]!)
    const put = await fetch(`${url}/${encodeURIComponent(id)}`, {
      method: 'PUT',
      headers: { Authorization: basic(BEN), 'Content-Type': 'application/json' },
      body: JSON.stringify({ note: 'written by hand' }),
    })
    expect(put.status).toBe(201)
    await ana.record([outcome('draft-0', 0, 'synced')])
    const stored = await fetch(`${url}/${encodeURIComponent(id)}`, { headers: { Authorization: basic(ANA) } })
    expect(await stored.json()).toMatchObject({ desk: 'ana', run: 'run-a', state: 'synced', _rev: /^2-/ })
  })

  it('a person’s decision on the server stands against a run’s later account of the same draft', async () => {
    const url = await workspace()
    const ana = runOf(url, ANA, 'run-a')
    await ana.take(drafts(1))
    // Ben's desk decided, meanwhile, that the draft was created (its claim had run out there).
    const decided = {
      ...outcome('draft-0', 0, 'synced'),
      destination: PRODUCTION,
      desk: 'ana',
      run: 'run-a',
      recordedBy: 'ben',
      decision: 'created' as const,
    }
    await new ServerSendRecords(new ServerDocuments({ url, ...BEN }), PRODUCTION).write([decided])
    // Ana's desk, restarted, recovers its item as unknown and writes that: the decision stays.
    await ana.record([outcome('draft-0', 0, 'unknown')])
    await ana.release()
    const answer = await runOf(url, BEN, 'run-b').take(drafts(1))
    expect(answer.recorded).toMatchObject([{ state: 'synced', recordedBy: 'ben', decision: 'created' }])
  })

  it('the first claim writes the workspace’s format; an earlier one is raised; a newer one takes nothing and says why', async () => {
    const url = await workspace()
    const documents = new ServerDocuments({ url, ...ANA })
    const format = async () => (await documents.read([FORMAT_ID])).rows[0]?.doc as Record<string, unknown>
    await runOf(url, ANA, 'run-a').take(drafts(1))
    expect(await format()).toMatchObject({ type: 'format', format: TEAM_FORMAT, desk: 'ana' })

    // A desk of the format before (one that predates `action`) wrote it last: raised again.
    await documents.bulk([{ ...(await format()), format: 1, desk: 'ben' }])
    await runOf(url, ANA, 'run-b').take(drafts(1, 1))
    expect(await format()).toMatchObject({ format: TEAM_FORMAT, desk: 'ana' })

    // Carol's desk, of a version to come, raised it past this one's: Ben's desk claims nothing.
    await documents.bulk([
      { ...(await format()), format: TEAM_FORMAT + 1, desk: 'carol', note: 'later fields' },
    ])
    const ben = runOf(url, BEN, 'run-c')
    await expect(ben.take(drafts(1, 2))).rejects.toThrow(
      `A newer Catalog Desk runs on carol’s desk: it records what it sends in a form this one cannot read (the workspace’s format ${TEAM_FORMAT + 1}, this desk’s ${TEAM_FORMAT}), so this desk could send again what that desk created. Update Catalog Desk on this desk, then send.`,
    )
    expect(ben.size).toBe(0)
    expect(await format()).toMatchObject({ format: TEAM_FORMAT + 1, desk: 'carol' })
  })

  it('a server out of reach takes nothing, and the error names it', async () => {
    const url = await workspace()
    server!.pause()
    const ana = runOf(url, ANA, 'run-a')
    await expect(ana.take(drafts(1))).rejects.toThrow(/server at http:\/\/127\.0\.0\.1:\d+ did not answer/)
    expect(ana.size).toBe(0)
  })

  it('a claim released between its refusal and the reading is taken at a second try', async () => {
    // The race, made to order: a server that refuses the first write, then reads the claim as
    // removed, then takes the second (the test server cannot be paused between two requests).
    const answers = [
      // The workspace's format: none yet, then written.
      { rows: [{ key: FORMAT_ID, error: 'not_found' }] },
      [{ id: FORMAT_ID, rev: '1-0f' }],
      [{ id: claimId(PRODUCTION, drafts(1)[0]!), error: 'conflict' }],
      { rows: [{ key: claimId(PRODUCTION, drafts(1)[0]!), value: { deleted: true }, doc: null }] },
      [{ id: claimId(PRODUCTION, drafts(1)[0]!), rev: '3-0a' }],
      // No send record of it yet.
      { rows: [{ key: sentId(PRODUCTION, drafts(1)[0]!), error: 'not_found' }] },
    ]
    const url = await scripted((request) => (request === 'GET' ? {} : answers.shift()))
    const answer = await runOf(url, ANA, 'run-a').take(drafts(1))
    expect(ids(answer.taken)).toEqual(['draft-0'])
    expect(answer.held).toEqual([])
    expect(answers).toEqual([])
  })

  it('a server answering in a form CouchDB never does takes nothing, and says so', async () => {
    const url = await scripted((request) => (request === 'GET' ? {} : { ok: true }))
    const ana = runOf(url, ANA, 'run-a')
    await expect(ana.take(drafts(2))).rejects.toThrow('answered in a form CouchDB never does')
    expect(ana.size).toBe(0)
  })
})

let scriptedServer: Server | undefined
afterEach(() => {
  scriptedServer?.close()
  scriptedServer = undefined
})

/** A server answering each request (by method) with what `answer` gives, as JSON, with a `Date`. */
async function scripted(answer: (method: string) => unknown): Promise<string> {
  scriptedServer = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      response.setHeader('Content-Type', 'application/json')
      response.end(JSON.stringify(answer(request.method ?? 'GET')))
    })
  })
  await new Promise<void>((resolve) => scriptedServer!.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(scriptedServer.address() as AddressInfo).port}/autumn`
}
