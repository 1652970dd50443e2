import { copyFile, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readPushInput } from '#cli/push/push-input.ts'
import type { Sandbox } from '#node/sandbox/server.ts'
import { barcodesIn, pushHarness } from './push-harness.ts'

/**
 * `push` matches SKUs by barcode with what it sent to the destination before (issue #34): an
 * edited copy of a file it sent creates nothing, updates what changed with only the changed fields
 * (`PUT …/v2.0/skus/{skuId}`), and leaves the rest alone. Against real sandboxes on loopback.
 */

const TOKEN = 'push-updates-token-2c7e'
const harness = pushHarness({ token: TOKEN, barcodePrefix: 'U' })
const { sandboxFor, push, skus } = harness

const path = (name: string) => join(harness.dir(), name)

const puts = (sandbox: Sandbox) => sandbox.requests().filter((entry) => entry.method === 'PUT')
const posts = (sandbox: Sandbox) => sandbox.requests().filter((entry) => entry.endpoint === 'skus')

/** Each SKU the sandbox holds, by barcode: as it now stands, its id, and the bodies of its updates. */
function stored(sandbox: Sandbox) {
  return new Map(
    sandbox
      .received()
      .skus.map((entry) => [
        (entry.sku as { barcode: string }).barcode,
        { id: entry._id, sku: entry.sku as Sku, updates: entry.updates.map((update) => update.body) },
      ]),
  )
}

type Sku = Record<string, unknown> & {
  brand: string
  arEffect: { transform: { position: { y: number } } }
}

/** The three SKUs sent first, and a copy of them with U-0's frame 3 mm lower and U-1's brand changed. */
function catalogue(): { sent: Sku[]; edited: Sku[] } {
  const sent = skus(3) as Sku[]
  const edited = structuredClone(sent)
  edited[0]!.arEffect.transform.position.y = 0.009
  edited[1]!.brand = 'Northwind Optics Pro'
  return { sent, edited }
}

async function files(): Promise<{ sent: Sku[]; edited: Sku[] }> {
  const { sent, edited } = catalogue()
  await writeFile(path('skus.json'), JSON.stringify(sent))
  await writeFile(path('edited.json'), JSON.stringify(edited))
  return { sent, edited }
}

const args = (file: string, sandbox: Sandbox, ...more: string[]) => [
  file,
  '--base-url',
  sandbox.url,
  '--token-env',
  'PUSH_TOKEN',
  ...more,
]

describe('push: updates what changed since it was sent there', () => {
  it('an edited copy of a file it sent: exactly two PUTs holding only the changed fields, nothing created, the third not sent', async () => {
    const sandbox = await sandboxFor()
    const { edited } = await files()
    const first = await push(args('skus.json', sandbox, '--json'))
    expect(first.code).toBe(0)
    expect(JSON.parse(first.stdout)).toMatchObject({ synced: 3, created: { synced: 3 } })
    expect(posts(sandbox)).toHaveLength(1)

    const copy = await push(args('edited.json', sandbox, '--json', '--report', 'report.json'))
    expect(copy.code).toBe(0)
    expect(JSON.parse(copy.stdout)).toMatchObject({
      total: 3,
      synced: 3,
      created: { synced: 0, rejected: 0, failed: 0, unknown: 0 },
      updated: { synced: 2, rejected: 0, notFound: 0, failed: 0, unknown: 0 },
      unchanged: 1,
      notUpdated: 0,
      status: 'finished',
    })
    // Nothing created: the one bulk upload of the first push; two PUTs, one a SKU.
    expect(posts(sandbox)).toHaveLength(1)
    expect(barcodesIn(sandbox)).toEqual(['U-0', 'U-1', 'U-2'])
    const after = stored(sandbox)
    expect(puts(sandbox).map((entry) => entry.path)).toEqual([
      `/service/platform/misc/v2.0/skus/${after.get('U-0')!.id}`,
      `/service/platform/misc/v2.0/skus/${after.get('U-1')!.id}`,
    ])
    // Each body holds only what changed, as the partial update takes it.
    expect(after.get('U-0')!.updates).toEqual([{ arEffect: { transform: { position: { y: 0.009 } } } }])
    expect(after.get('U-1')!.updates).toEqual([{ brand: 'Northwind Optics Pro' }])
    expect(after.get('U-2')!.updates).toEqual([])
    // The platform's SKUs now stand as the copy has them.
    expect(after.get('U-0')!.sku).toEqual(edited[0])
    expect(after.get('U-1')!.sku).toEqual(edited[1])
    const report = JSON.parse(await readFile(path('report.json'), 'utf8')) as unknown[]
    expect(report).toEqual([
      { index: 0, barcode: 'U-0', state: 'synced', action: 'update' },
      { index: 1, barcode: 'U-1', state: 'synced', action: 'update' },
      { index: 2, barcode: 'U-2', state: 'synced', action: 'none' },
    ])

    // Sent again, nothing has changed since: nothing is sent; the text says so.
    const again = await push(args('edited.json', sandbox))
    expect(again.code).toBe(0)
    expect(again.stdout).toBe(
      '3 SKUs: 3 synced, 0 rejected, 0 failed, 0 unknown.\nCreated 0, updated 0 (only the changed fields sent), unchanged since sent there 3 (not sent again).\n',
    )
    expect(puts(sandbox)).toHaveLength(2)
    // The first file is now what is changed: U-0 and U-1 go back, U-2 stays.
    const back = await push(args('skus.json', sandbox, '--json'))
    expect(JSON.parse(back.stdout)).toMatchObject({ updated: { synced: 2 }, unchanged: 1 })
    expect(puts(sandbox)).toHaveLength(4)
  })

  // A tryout corrected a barcode in its sheet and pushed: the platform held the product twice.
  it('says before sending that a SKU to create looks like one created there under the barcode it had', async () => {
    const sandbox = await sandboxFor()
    const sent = skus(3).map((sku, i) => ({ ...sku, barcode: `U-${i}`, productName: `Frame ${i}` }))
    await writeFile(path('skus.json'), JSON.stringify(sent))
    expect((await push(args('skus.json', sandbox))).code).toBe(0)
    // U-1's barcode corrected to U-9: to push, a new SKU (it matches by barcode), and said so.
    const corrected = structuredClone(sent)
    corrected[1]!.barcode = 'U-9'
    await writeFile(path('corrected.json'), JSON.stringify(corrected))
    const dry = await push(args('corrected.json', sandbox, '--dry-run'))
    expect(dry.stderr).toContain(
      'note: 1 SKU to create has the name of one created there under a barcode not in this file. If its barcode was corrected, this push would create a second SKU: push matches SKUs by barcode (the app corrects a barcode there as an update).',
    )
    expect(dry.stderr).toContain('[1] U-9: “Frame 1” was created there as U-1')
    const run = await push(args('corrected.json', sandbox))
    expect(run.stderr).toContain('this push creates a second SKU')
    expect(barcodesIn(sandbox)).toEqual(['U-0', 'U-1', 'U-2', 'U-9'])

    // A name another SKU of the file has too (a frame's other colour) is no swap: U-0 is renamed
    // "Frame 2", as U-2 is, and U-2's barcode changes.
    const sibling = structuredClone(corrected)
    sibling[0]!.productName = 'Frame 2'
    sibling[2]!.barcode = 'U-8'
    await writeFile(path('sibling.json'), JSON.stringify(sibling))
    expect((await push(args('sibling.json', sandbox, '--dry-run'))).stderr).not.toContain('note:')
  })

  it('--no-updates creates only: nothing is sent for the copy, its changes are counted, exit 0', async () => {
    const sandbox = await sandboxFor()
    const { edited } = await files()
    await writeFile(path('edited.json'), JSON.stringify([...edited, ...skus(1, 'NEW')]))
    expect((await push(args('skus.json', sandbox))).code).toBe(0)
    const copy = await push(args('edited.json', sandbox, '--no-updates', '--json'))
    expect(copy.code).toBe(0)
    expect(JSON.parse(copy.stdout)).toMatchObject({
      total: 4,
      synced: 2,
      created: { synced: 1 },
      updated: { synced: 0 },
      unchanged: 1,
      notUpdated: 2,
    })
    expect(copy.stderr).toContain('2 SKUs changed since sent there are not updated (--no-updates).')
    expect(puts(sandbox)).toHaveLength(0)
    expect(barcodesIn(sandbox)).toEqual(['U-0', 'U-1', 'U-2', 'NEW-0'])
    // Without it, the same copy updates them.
    const updating = await push(args('edited.json', sandbox, '--json'))
    expect(JSON.parse(updating.stdout)).toMatchObject({ updated: { synced: 2 }, unchanged: 2 })
  })

  it('without ids in the bulk answer an update is held, saying why and how; a platform list with ids makes it updatable', async () => {
    const sandbox = await sandboxFor({ answerIds: false })
    await files()
    expect((await push(args('skus.json', sandbox))).code).toBe(0)

    const copy = await push(args('edited.json', sandbox, '--json'))
    expect(copy.code).toBe(1)
    expect(JSON.parse(copy.stdout)).toMatchObject({ synced: 1, held: 2, unchanged: 1 })
    const why = `Changed since it was created at ${sandbox.url}, but the platform's id of this SKU is unknown, so it cannot be updated: give it with --platform-has LIST, a list with a barcode column and an id column (_id, id or skuId)`
    expect(copy.stderr).toContain(`[0] U-0: ${why}`)
    expect(copy.stderr).toContain(`[1] U-1: ${why}`)
    expect(puts(sandbox)).toHaveLength(0)

    // A barcode listed with two ids is refused by name: nothing changes, nothing is sent.
    const ids = stored(sandbox)
    await writeFile(path('twice.csv'), `barcode,_id\nU-0,${ids.get('U-0')!.id}\nU-0,${ids.get('U-1')!.id}\n`)
    const twice = await push(args('edited.json', sandbox, '--platform-has', 'twice.csv'))
    expect(twice.code).toBe(2)
    expect(twice.stderr).toMatch(/Barcode U-0 is listed with two ids/)
    expect(puts(sandbox)).toHaveLength(0)

    // The platform's ids, as a person exports them: the next push updates the two.
    const list = [
      'barcode,_id',
      ...['U-0', 'U-1', 'U-2'].map((barcode) => `${barcode},${ids.get(barcode)!.id}`),
    ]
    await writeFile(path('platform.csv'), `${list.join('\n')}\n`)
    const updatable = await push(args('edited.json', sandbox, '--json', '--platform-has', 'platform.csv'))
    expect(updatable.code).toBe(0)
    expect(JSON.parse(updatable.stdout)).toMatchObject({
      synced: 3,
      updated: { synced: 2 },
      unchanged: 1,
      platformList: { idsSet: 3, markedCreated: 0 },
    })
    const after = stored(sandbox)
    expect(after.get('U-0')!.updates).toEqual([{ arEffect: { transform: { position: { y: 0.009 } } } }])
    expect(after.get('U-1')!.updates).toEqual([{ brand: 'Northwind Optics Pro' }])
    // The ids are in the journal now: the list is not needed again.
    const { edited } = catalogue()
    edited[2]!.brand = 'Later'
    await writeFile(path('later.json'), JSON.stringify(edited))
    const later = await push(args('later.json', sandbox, '--json'))
    expect(JSON.parse(later.stdout)).toMatchObject({ updated: { synced: 1 }, unchanged: 2 })
  })

  it('a 404 to an update: not on the platform any more, a refusal (exit 1), not sent again by itself', async () => {
    const sandbox = await sandboxFor()
    const { edited } = await files()
    await writeFile(path('edited.json'), JSON.stringify([edited[0], ...catalogue().sent.slice(1)]))
    expect((await push(args('skus.json', sandbox))).code).toBe(0)
    // Deleted on the platform since: the sandbox no longer knows the ids it gave.
    await sandbox.clearReceived()

    const copy = await push(args('edited.json', sandbox, '--json', '--report', 'report.json'))
    expect(copy.code).toBe(1)
    expect(JSON.parse(copy.stdout)).toMatchObject({
      synced: 2,
      rejected: 1,
      updated: { synced: 0, rejected: 0, notFound: 1 },
      unchanged: 2,
      status: 'finished',
    })
    expect(puts(sandbox)).toHaveLength(1)
    const report = JSON.parse(await readFile(path('report.json'), 'utf8')) as Array<Record<string, unknown>>
    expect(report[0]).toMatchObject({ state: 'rejected', action: 'update', notFound: true })
    expect(report[0]!.message).toMatch(
      /^Not on the platform any more: The service says the SKU is not there \(HTTP 404/,
    )
    const text = await push(args('edited.json', sandbox))
    expect(text.code).toBe(1)
    expect(text.stdout).toMatch(/rejected update: \[0\] U-0: Not on the platform any more/)
    expect(text.stdout).toContain('Push does not create it again by itself')
    // Neither run sent it again, nor created it.
    expect(puts(sandbox)).toHaveLength(1)
    expect(posts(sandbox)).toHaveLength(1)
  })

  it('a crash in the middle of an update run: the update in flight is sent again once by the next push, whole', async () => {
    // Every update waits 150 ms at the sandbox, so the crash falls while one is in flight.
    const sandbox = await sandboxFor({
      faults: [{ kind: 'latency', delayMs: 150, endpoint: 'sku-update', times: null }],
    })
    const { edited } = await files()
    expect((await push(args('skus.json', sandbox))).code).toBe(0)
    const journal = harness.journalOf(sandbox.url)
    const lines = async () => (await readFile(journal, 'utf8')).split('\n').filter(Boolean).length
    expect(await lines()).toBe(3)

    const interrupt = new AbortController()
    const running = push(args('edited.json', sandbox, '--concurrency', '1'), { signal: interrupt.signal })
    // header, begin, end of the creation; then the begin of the first update: the journal as a
    // crash while it is in flight leaves it.
    await expect.poll(lines, { interval: 5, timeout: 5_000 }).toBe(4)
    await copyFile(journal, path('crashed.jsonl'))
    interrupt.abort()
    await running
    await copyFile(path('crashed.jsonl'), journal)
    const before = puts(sandbox).length
    expect(before).toBe(1)

    const resumed = await push(args('edited.json', sandbox, '--json'))
    expect(resumed.code).toBe(0)
    expect(resumed.stderr).toContain('1 update left sending by an earlier run: sent again in this push')
    expect(resumed.stderr).toContain(
      '1 update whose outcome an earlier push left unknown or failed is sent again, whole',
    )
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      updated: { synced: 2 },
      unchanged: 1,
      created: { synced: 0 },
    })
    const after = stored(sandbox)
    // U-0's update twice in all (the crashed one reached the sandbox), the second whole; U-1's once.
    expect(after.get('U-0')!.updates).toHaveLength(2)
    expect(after.get('U-0')!.updates[1]).toEqual(edited[0])
    expect(after.get('U-1')!.updates).toEqual([{ brand: 'Northwind Optics Pro' }])
    expect(after.get('U-0')!.sku).toEqual(edited[0])
    expect(posts(sandbox)).toHaveLength(1)

    // Once: the next push finds both as they stand and sends nothing.
    const third = await push(args('edited.json', sandbox, '--json'))
    expect(JSON.parse(third.stdout)).toMatchObject({ unchanged: 3 })
    expect(puts(sandbox)).toHaveLength(3)
  })

  it('a journal of the earlier format beside the file: carried over with the file it was written for, refused with an edited one', async () => {
    const sandbox = await sandboxFor()
    const { sent } = await files()
    // What an earlier catalog-desk left beside skus.json: U-0 created, U-1 unknown (its answer
    // lost), U-2 never sent. Bound to the file's content by its fingerprint, keyed by item numbers.
    const input = await readPushInput('skus.json', harness.dir())
    const fingerprint = input.fingerprint
    input.close()
    const request = (id: string, keys: string[]) => ({
      id,
      runId: 'old',
      kind: 'skus',
      keys,
      bytes: 10,
      startedAt: 1_000,
      attempts: 1,
    })
    const legacy = [
      { type: 'header', format: 1, fingerprint, baseUrl: sandbox.url, kind: 'skus', total: 3 },
      { type: 'begin', request: request('old/1', ['0']) },
      { type: 'end', request: request('old/1', ['0']), updates: [{ key: '0', state: 'synced' }] },
      { type: 'begin', request: request('old/2', ['1']) },
      {
        type: 'end',
        request: request('old/2', ['1']),
        updates: [{ key: '1', state: 'unknown', message: 'The connection was reset' }],
      },
    ]
    const legacyText = legacy.map((line) => `${JSON.stringify(line)}\n`).join('')
    await writeFile(path('skus.json.push-journal.jsonl'), legacyText)

    // The file edited since: its item numbers say nothing for sure. Refused, nothing sent.
    await writeFile(path('skus.json'), JSON.stringify([sent[1], sent[0], sent[2]]))
    const edited = await push(args('skus.json', sandbox))
    expect(edited.code).toBe(2)
    expect(edited.stderr).toContain(
      'is the journal an earlier catalog-desk kept of a push of this file as it was then',
    )
    expect(edited.stderr).toContain('Put the file back as it was and push it once')
    expect(sandbox.requests()).toHaveLength(0)

    // The file as it was: what the earlier journal says is carried over; only U-2 is created.
    await writeFile(path('skus.json'), JSON.stringify(sent))
    const carried = await push(args('skus.json', sandbox, '--json'))
    expect(carried.code).toBe(1)
    expect(carried.stderr).toContain(
      'The journal an earlier catalog-desk kept beside skus.json is carried over (2 SKUs it sent, by barcode)',
    )
    expect(JSON.parse(carried.stdout)).toMatchObject({
      synced: 2,
      unknown: 1,
      created: { synced: 1, unknown: 1 },
      unchanged: 1,
    })
    expect(barcodesIn(sandbox)).toEqual(['U-2'])
    expect(await readFile(path('skus.json.push-journal.jsonl'), 'utf8')).toBe(legacyText)

    // From then on the destination's journal knows them by barcode, whatever file: the earlier
    // journal is not read again (an edited skus.json is no longer refused), U-0 is changed but has
    // no known id (the earlier version kept none), U-1 is still unknown: nothing is sent twice.
    const { edited: copy } = catalogue()
    await writeFile(path('skus.json'), JSON.stringify(copy))
    const later = await push(args('skus.json', sandbox, '--json'))
    expect(later.code).toBe(1)
    expect(JSON.parse(later.stdout)).toMatchObject({ held: 1, unknown: 1, unchanged: 1 })
    expect(later.stderr).toContain('[0] U-0: Changed since it was created at')
    expect(barcodesIn(sandbox)).toEqual(['U-2'])
    expect(puts(sandbox)).toHaveLength(0)
  })
})
