import { DEFAULT_SENDING } from '#shared/profile.ts'
import { saved } from './harness/editor-page.ts'
import { axe, expect, screenshot, test, type AppWindow } from './harness/fixtures.ts'
import {
  addActiveProfile,
  seedForSync,
  seededValid,
  setSending,
  STAND_IN_TOKEN,
} from './harness/sync-setup.ts'
import { decide } from './harness/decisions.ts'
import { EMBEDDED_SANDBOX_TOKEN } from '#main/embedded-sandbox.ts'
import {
  history,
  legend,
  openSync,
  progress,
  receivedBarcodes,
  reloadWhileMainWaits,
  syncStates,
} from './harness/sync-page.ts'
import { saveToken } from './harness/settings-page.ts'

/** A service elsewhere on the network (a reserved name: nothing answers it), like Staging's address. */
const REMOTE_ADDRESS = 'https://catalog-api.example'

test.describe('Sync', () => {
  test('sends every ready draft once, shows progress and the history, and never sends a synced draft there again', async ({
    page,
    pageProblems,
    sandbox,
  }) => {
    const seeded = await seedForSync(page, pageProblems, 30, { sent: [0] })
    await setSending(page, 'sandbox', { batchSize: 8 })
    await openSync(page)

    const before = page.getByRole('region', { name: 'SKUs to send' })
    // 30 drafts: 3 with errors (7, 17, 27), 1 already synced (0).
    await expect(before.getByText('Ready to send')).toBeVisible()
    await expect(before.locator('.import-counts__item', { hasText: 'Ready to send' })).toContainText('26')
    await expect(before.locator('.import-counts__item', { hasText: 'With errors' })).toContainText('3')
    await expect(before.locator('.import-counts__item', { hasText: 'Already synced' })).toContainText('1')
    await expect(before).toContainText('3 drafts with errors are left out')
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'sync-preflight')

    await page.getByRole('button', { name: 'Create 26 new on Sandbox' }).click()
    await expect(progress(page).getByRole('heading', { name: 'Finished' })).toBeVisible({ timeout: 20_000 })
    await expect(legend(page, 'Synced')).toContainText('26')
    await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '26')
    await expect(page.getByRole('log')).toContainText('Done: 26 synced, 0 rejected, 0 failed, 0 unknown.')

    // The sandbox has each ready SKU exactly once, in four requests of at most 8.
    const expected = seeded
      .filter((draft) => draft.index !== 0 && seededValid(draft.index))
      .map((d) => d.barcode)
    expect(receivedBarcodes(sandbox).sort()).toEqual(expected.sort())
    expect(sandbox.requests().map((request) => request.skuCount)).toEqual([8, 8, 8, 2])
    expect(await syncStates(page)).toEqual({ synced: 27, draft: 3 })

    // The history lists the run and its four requests, with the SKUs of each.
    const run = history(page).locator('details.sync-run').first()
    await expect(run).toContainText('Finished')
    await expect(run).toContainText('26 synced')
    await expect(run.getByRole('heading', { name: 'Requests (4)' })).toBeVisible()
    await run.getByText('8 SKUs').first().click()
    await expect(run.locator('.sync-batches__skus').first()).toContainText(seeded[1]!.barcode)
    // Nothing left: the button says so.
    await expect(page.getByRole('button', { name: 'Nothing new to create on Sandbox' })).toBeDisabled()
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'sync-finished')

    // A synced draft says so; edited, it is offered as an update, never created again. Duplicated, it
    // is a new draft.
    await page.goto(`/#/skus/${seeded[1]!.id}`)
    await expect(page.getByText('Created on Sandbox; unchanged since.')).toBeVisible()
    await page.getByLabel('Product name').fill(`${seeded[1]!.productName} v2`)
    await saved(page)
    await expect(
      page.getByText('Changed since it was created on Sandbox: Update sends the changed fields.'),
    ).toBeVisible()
    expect(await axe(page, { exclude: '.editor__preview' })).toEqual([])
    await screenshot(page, 'sync-synced-draft')
    await page.getByRole('button', { name: 'Duplicate as a new draft' }).click()
    await expect(page.getByLabel('Product name')).toHaveValue(`${seeded[1]!.productName} v2 (copy)`)
    await expect(page.getByLabel('Product name')).toBeEnabled()
    await expect(page.locator('.sent-banner')).toHaveCount(0)
    // Its barcode is already created there: the copy is held back, not sent as a second one.
    await page.getByRole('link', { name: 'Sync', exact: true }).click()
    await expect(page.getByRole('button', { name: 'Nothing new to create on Sandbox' })).toBeVisible()
    await expect(page.locator('.sync-start__held')).toContainText(
      '1 draft with a barcode already created on Sandbox',
    )
  })

  test('as a run ends, the bar beside "Finished" is full and the pre-flight never counts its drafts as still in a run', async ({
    page,
    pageProblems,
  }) => {
    await seedForSync(page, pageProblems, 30)
    await setSending(page, 'sandbox', { batchSize: 8 })
    await openSync(page)
    // What a person could have seen as the run ended, watched from the page: the bar in the first
    // frame whose heading says "Finished", and any moment the pre-flight said "in a run not finished".
    await page.evaluate(() => {
      interface Node {
        textContent: string | null
        clientWidth: number
        getBoundingClientRect(): { width: number }
        querySelector(selector: string): Node | null
        querySelectorAll(selector: string): ArrayLike<Node>
      }
      const window = globalThis as unknown as {
        document: Node & { body: unknown }
        MutationObserver: new (callback: () => void) => { observe(target: unknown, options: object): void }
        requestAnimationFrame(callback: () => void): number
        __runEnd: { inRunShown: string[]; filledAtFinished?: number }
      }
      const seen: { inRunShown: string[]; filledAtFinished?: number } = { inRunShown: [] }
      window.__runEnd = seen
      const { document } = window
      new window.MutationObserver(() => {
        const text = document.querySelector('.sync-start--skus')?.textContent ?? ''
        if (/in a run not finished/i.test(text)) seen.inRunShown.push(text)
      }).observe(document.body, { subtree: true, childList: true, characterData: true })
      const frame = () => {
        const bar = document.querySelector('.sync-bar')
        if (bar && document.querySelector('#sync-progress-title')?.textContent?.trim() === 'Finished') {
          const parts = Array.from(bar.querySelectorAll('.sync-bar__part'))
          const filled = parts.reduce((sum, part) => sum + part.getBoundingClientRect().width, 0)
          seen.filledAtFinished = filled / bar.clientWidth
          return
        }
        window.requestAnimationFrame(frame)
      }
      window.requestAnimationFrame(frame)
    })
    await page.getByRole('button', { name: 'Create 27 new on Sandbox' }).click()
    await expect(progress(page).getByRole('heading', { name: 'Finished' })).toBeVisible({ timeout: 20_000 })
    await expect(page.getByRole('button', { name: 'Nothing new to create on Sandbox' })).toBeVisible()
    await expect(progress(page)).toContainText('27 of 27 SKUs done')
    const seen = await page.evaluate(
      () =>
        (globalThis as unknown as { __runEnd: { inRunShown: string[]; filledAtFinished?: number } }).__runEnd,
    )
    expect.soft(seen.filledAtFinished).toBeGreaterThan(0.99)
    expect(seen.inRunShown).toEqual([])
  })

  test('a 500 fails a batch, a reset after processing leaves one unknown; the person resolves both', async ({
    page,
    pageProblems,
    sandbox,
  }) => {
    const seeded = await seedForSync(page, pageProblems, 20)
    await setSending(page, 'sandbox', { batchSize: 6 })
    // First request: a 500 before processing. Second: stored, then the connection drops.
    sandbox.addFaults([
      { kind: 'server-error', stage: 'before', endpoint: 'skus' },
      { kind: 'reset', stage: 'after', endpoint: 'skus' },
    ])
    await openSync(page)
    await page.getByRole('button', { name: 'Create 18 new on Sandbox' }).click()
    await expect(progress(page).getByRole('heading', { name: 'Finished' })).toBeVisible({ timeout: 20_000 })
    await expect(legend(page, 'Synced')).toContainText('6')
    await expect(legend(page, 'Failed')).toContainText('6')
    await expect(legend(page, 'Unknown')).toContainText('6')
    expect(await syncStates(page)).toEqual({ synced: 6, failed: 6, unknown: 6, draft: 2 })

    const waiting = page.getByRole('region', { name: 'Batches waiting for your decision' })
    await expect(waiting.getByRole('article')).toHaveCount(2)
    const failed = waiting.getByRole('article').filter({ hasText: 'the service failed' })
    const unknown = waiting.getByRole('article').filter({ hasText: 'outcome unknown' })
    await expect(unknown).toContainText('creates a second copy of any SKU that is already there')
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'sync-decisions')

    // The dropped answer's SKUs are on the service: the person marks them as created.
    const valid = seeded.filter((draft) => seededValid(draft.index))
    expect(receivedBarcodes(sandbox).sort()).toEqual(
      valid
        .slice(6, 18)
        .map((d) => d.barcode)
        .sort(),
    )
    await decide(page, unknown, 'created')
    await expect(waiting.getByRole('article')).toHaveCount(1)
    // The 500 came before processing: sending again creates them once.
    await decide(page, failed, 'resend')
    await expect(page.getByRole('log')).toContainText('6 drafts queued to be sent again.')
    // The heading said Finished before the click too: the resumed run's own last line says it ended.
    await expect(page.getByRole('log')).toContainText('Done: 18 synced, 0 rejected, 0 failed, 0 unknown.', {
      timeout: 20_000,
    })
    await expect(progress(page).getByRole('heading', { name: 'Finished' })).toBeVisible()
    await expect(page.getByRole('region', { name: 'Batches waiting for your decision' })).toHaveCount(0)
    expect(await syncStates(page)).toEqual({ synced: 18, draft: 2 })
    const received = receivedBarcodes(sandbox)
    expect(received.sort()).toEqual(valid.map((d) => d.barcode).sort())
    expect(new Set(received).size).toBe(received.length)
    await expect(history(page).locator('details.sync-run').first()).toContainText('You marked it as created')
  })

  test('pauses for a refused token, with a way to Settings, and goes on once a valid one is set', async ({
    page,
    pageProblems,
    sandbox,
  }) => {
    await seedForSync(page, pageProblems, 5)
    await addActiveProfile(
      page,
      {
        ...DEFAULT_SENDING,
        timeouts: { ...DEFAULT_SENDING.timeouts },
        id: 'local',
        name: 'Local service',
        kind: 'service',
        baseUrl: sandbox.url,
      },
      // Without a token no run starts (settings.spec.ts); with a wrong one, the service refuses it.
      'not-the-token',
    )
    await openSync(page)
    await page.getByRole('button', { name: 'Create 5 new on Local service' }).click()
    await expect(
      progress(page).getByRole('heading', { name: 'Paused: the service needs a valid token' }),
    ).toBeVisible()
    const prompt = page.getByRole('alert').filter({ hasText: 'A valid token is needed' })
    await expect(prompt).toContainText('nothing was created')
    expect(sandbox.received().skus).toEqual([])
    expect(await syncStates(page)).toEqual({ queued: 5 })
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'sync-needs-token')

    await prompt.getByRole('link', { name: 'Open Settings' }).click()
    // "Token set" said so of the refused token already: the save's own words say it is kept.
    await saveToken(page, EMBEDDED_SANDBOX_TOKEN)
    await openSync(page)
    // The run waited while the person was away.
    await expect(
      progress(page).getByRole('heading', { name: 'Paused: the service needs a valid token' }),
    ).toBeVisible()
    await progress(page).getByRole('button', { name: 'Resume' }).click()
    await expect(progress(page).getByRole('heading', { name: 'Finished' })).toBeVisible({ timeout: 20_000 })
    expect(receivedBarcodes(sandbox)).toHaveLength(5)
    expect(await syncStates(page)).toEqual({ synced: 5 })
  })

  test('a run resumes only to the address it was started for; its profile now pointing elsewhere, nothing is sent', async ({
    page,
    context,
    pageProblems,
    sandbox,
  }) => {
    await seedForSync(page, pageProblems, 5)
    const local = {
      ...DEFAULT_SENDING,
      timeouts: { ...DEFAULT_SENDING.timeouts },
      id: 'local',
      name: 'Local service',
      kind: 'service' as const,
      baseUrl: sandbox.url,
    }
    await addActiveProfile(page, local, 'not-the-token')
    await openSync(page)
    await page.getByRole('button', { name: 'Create 5 new on Local service' }).click()
    await expect(
      progress(page).getByRole('heading', { name: 'Paused: the service needs a valid token' }),
    ).toBeVisible()
    const refused = sandbox.requests().length
    await page.close()

    // The profile is edited to another address (with a token, so a send would succeed there).
    const next = await context.newPage()
    await next.goto('/#/sync')
    await addActiveProfile(next, { ...local, baseUrl: 'http://127.0.0.1:9' })
    await next.evaluate(async (token) => {
      await (globalThis as AppWindow).api.setToken('local', token)
    }, EMBEDDED_SANDBOX_TOKEN)
    await next.reload()
    const banner = next.getByRole('region', { name: 'A run did not finish' })
    await expect(banner).toBeVisible()
    await expect(banner.getByRole('paragraph')).toHaveText(
      /stopped with 5 SKUs still to send, 0 synced\.\s*$/,
    )
    await banner.getByRole('button', { name: 'Resume sending' }).click()
    await expect(next.getByRole('alert').filter({ hasText: 'This run was started for' })).toHaveText(
      `This run was started for ${sandbox.url}; the profile now points at http://127.0.0.1:9. Cancel it and start a new sync.`,
    )
    // Nothing was sent, the run stays open and its drafts queued, until the person cancels it.
    await expect(banner).toBeVisible()
    await expect(progress(next)).toHaveCount(0)
    expect(sandbox.requests()).toHaveLength(refused)
    expect(await syncStates(next)).toEqual({ queued: 5 })
    await banner.getByRole('button', { name: 'Cancel the run' }).click()
    await expect(banner).toHaveCount(0)
    expect(await syncStates(next)).toEqual({ draft: 5 })
  })

  test('closing the page mid-run leaves every draft in a known state: main’s answer to the batch in flight is written; the run resumes with nothing sent twice', async ({
    page,
    context,
    pageProblems,
    sandbox,
  }) => {
    const seeded = await seedForSync(page, pageProblems, 60)
    await setSending(page, 'sandbox', { batchSize: 4 })
    sandbox.addFaults([{ kind: 'latency', delayMs: 600, times: null }])
    await openSync(page)
    await page.getByRole('button', { name: 'Create 54 new on Sandbox' }).click()
    await expect(progress(page).getByRole('heading', { name: 'Sending to Sandbox' })).toBeVisible()
    // A few batches in, with one in flight, the window goes.
    await expect
      .poll(() => sandbox.requests().filter((request) => request.status === 201).length)
      .toBeGreaterThanOrEqual(2)
    await expect(progress(page).getByText(/SKUs\/s · about .* left/)).toBeVisible()
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'sync-running')
    // Closed while a request has just arrived (each takes 600 ms), not in the moment between two.
    await expect
      .poll(
        () =>
          sandbox
            .requests()
            .filter((request) => request.status === 'pending' && Date.now() - Date.parse(request.at) < 200)
            .length,
        { intervals: [25] },
      )
      .toBe(1)
    await page.close()
    // The request that was in flight still reaches the service, and main, which sent it, has the
    // answer (as in the app when its window closes and main goes on, or the window reloads).
    await expect
      .poll(() => sandbox.requests().filter((request) => request.status === 'pending').length)
      .toBe(0)
    sandbox.clearFaults()
    const storedBeforeResume = receivedBarcodes(sandbox)

    const next = await context.newPage()
    await next.goto('/#/sync')
    const banner = next.getByRole('region', { name: 'A run did not finish' })
    await expect(banner).toBeVisible()
    // The batch in flight is written as created from main's answer: nothing is left unknown.
    expect(await syncStates(next)).toEqual({
      synced: storedBeforeResume.length,
      queued: 54 - storedBeforeResume.length,
      draft: 6,
    })
    expect(await axe(next)).toEqual([])
    await screenshot(next, 'sync-interrupted')

    await banner.getByRole('button', { name: 'Resume sending' }).click()
    await expect(progress(next).getByRole('heading', { name: 'Finished' })).toBeVisible({ timeout: 30_000 })
    await expect(next.getByRole('region', { name: 'Batches waiting for your decision' })).toHaveCount(0)
    await expect(history(next).locator('details.sync-run').first()).toContainText(
      'Then: answered after the window that sent it was reloaded or closed; synced.',
    )

    expect(await syncStates(next)).toEqual({ synced: 54, draft: 6 })
    const received = receivedBarcodes(sandbox)
    expect(new Set(received).size).toBe(received.length)
    expect(received.sort()).toEqual(
      seeded
        .filter((draft) => seededValid(draft.index))
        .map((draft) => draft.barcode)
        .sort(),
    )
  })

  test('reloading the window while main waits on the service: the batch shows as sending, then as created once the answer comes', async ({
    page,
    pageProblems,
    sandbox,
  }) => {
    await seedForSync(page, pageProblems, 10)
    await setSending(page, 'sandbox', { batchSize: 4 })
    await openSync(page)
    // The window reloads (Ctrl+R) while main waits on the service for the first batch.
    await reloadWhileMainWaits(page, sandbox, 'Create 9 new on Sandbox')
    // The page opens with the batch still being sent (main is on it), not "unknown"...
    const banner = page.getByRole('region', { name: 'A run did not finish' })
    await expect(banner).toContainText(
      "5 SKUs still to send, 0 synced. 4 more were sent before the window was reloaded or closed: the app is waiting for the service's answer",
    )
    // ...and counts it created once main has the answer, with nobody asked to decide anything.
    await expect(banner).toContainText('5 SKUs still to send, 4 synced.', { timeout: 20_000 })
    await expect(banner).not.toContainText('waiting for')
    expect(await syncStates(page)).toEqual({ synced: 4, queued: 5, draft: 1 })
    await expect(page.getByRole('region', { name: 'Batches waiting for your decision' })).toHaveCount(0)
    await screenshot(page, 'sync-reloaded-mid-run')

    // The run takes up what is left; nothing is sent twice.
    await banner.getByRole('button', { name: 'Resume sending' }).click()
    await expect(progress(page).getByRole('heading', { name: 'Finished' })).toBeVisible({ timeout: 20_000 })
    expect(await syncStates(page)).toEqual({ synced: 9, draft: 1 })
    const received = receivedBarcodes(sandbox)
    expect(received).toHaveLength(9)
    expect(new Set(received).size).toBe(9)
  })

  test('resumed at once after a reload, the run waits for the answer main still awaits, and says so', async ({
    page,
    pageProblems,
    sandbox,
  }) => {
    await seedForSync(page, pageProblems, 10)
    await setSending(page, 'sandbox', { batchSize: 4 })
    await openSync(page)
    await reloadWhileMainWaits(page, sandbox, 'Create 9 new on Sandbox')
    await page
      .getByRole('region', { name: 'A run did not finish' })
      .getByRole('button', { name: 'Resume sending' })
      .click()
    await expect(page.getByRole('log')).toContainText(
      "Waiting for the service's answer to 1 request sent before the window was reloaded or closed…",
    )
    await expect(progress(page).getByRole('heading', { name: 'Finished' })).toBeVisible({ timeout: 20_000 })
    await expect(page.getByRole('log')).toContainText('Done: 9 synced, 0 rejected, 0 failed, 0 unknown.')
    expect(await syncStates(page)).toEqual({ synced: 9, draft: 1 })
    const received = receivedBarcodes(sandbox)
    expect(received).toHaveLength(9)
    expect(new Set(received).size).toBe(9)
  })

  test('cancel lets the batch in flight finish and records it; the drafts not sent go back to draft', async ({
    page,
    pageProblems,
    sandbox,
  }) => {
    await seedForSync(page, pageProblems, 20)
    await setSending(page, 'sandbox', { batchSize: 3 })
    sandbox.addFaults([{ kind: 'latency', delayMs: 500, times: null }])
    await openSync(page)
    await page.getByRole('button', { name: 'Create 18 new on Sandbox' }).click()
    const count = (status: number | 'pending') => sandbox.requests().filter((r) => r.status === status).length
    await expect.poll(() => count(201), { intervals: [50] }).toBeGreaterThanOrEqual(1)
    await expect.poll(() => count('pending'), { intervals: [50] }).toBe(1)
    await progress(page).getByRole('button', { name: 'Cancel' }).click()
    await expect(progress(page).getByRole('heading', { name: 'Cancelled' })).toBeVisible()
    // The batch that was in flight finished and was recorded as synced: nothing is unknown.
    expect(count('pending')).toBe(0)
    const stored = sandbox.received().skus.length
    expect(stored).toBeGreaterThanOrEqual(6)
    expect(stored).toBeLessThan(18)
    // Said once the drafts are back: the Cancelled heading comes a moment before.
    await expect(page.getByRole('log')).toContainText(`${18 - stored} drafts not sent went back to draft.`)
    expect(await syncStates(page)).toEqual({ synced: stored, draft: 20 - stored })
    await expect(history(page).locator('details.sync-run').first()).toContainText(
      `${18 - stored} back to draft`,
    )
    await expect(page.getByRole('button', { name: `Create ${18 - stored} new on Sandbox` })).toBeEnabled()
  })

  test('going offline pauses a run to a destination that needs the network; it goes on by itself when the connection is back', async ({
    page,
    context,
    pageProblems,
    sandbox,
    reachedThroughSandbox,
  }) => {
    await seedForSync(page, pageProblems, 20)
    // A service elsewhere on the network, as Staging is; in the test its requests reach the sandbox.
    reachedThroughSandbox.add('remote')
    await addActiveProfile(
      page,
      {
        ...DEFAULT_SENDING,
        timeouts: { ...DEFAULT_SENDING.timeouts },
        id: 'remote',
        name: 'Remote service',
        kind: 'service',
        baseUrl: REMOTE_ADDRESS,
        batchSize: 3,
      },
      STAND_IN_TOKEN,
    )
    sandbox.addFaults([{ kind: 'latency', delayMs: 250, times: null }])
    await openSync(page)
    await page.getByRole('button', { name: 'Create 18 new on Remote service' }).click()
    await expect.poll(() => sandbox.requests().length).toBeGreaterThanOrEqual(1)
    await context.setOffline(true)
    await expect(
      progress(page).getByRole('heading', { name: 'Paused: this computer is offline' }),
    ).toBeVisible()
    await expect(page.getByText('This computer is offline.')).toBeVisible()
    await expect(progress(page).getByRole('button', { name: 'Resume' })).toBeDisabled()
    // The engine itself says it paused (not only the page's panel): from then on it starts no request.
    await expect(page.getByRole('log')).toContainText('Paused: no new requests')
    const sentWhenPaused = sandbox.requests().length
    // What was in flight then still ends, at the sandbox and on the page (no SKU sending); after
    // that, nothing more goes out until the connection is back.
    await expect
      .poll(async () => ({
        pending: sandbox.requests().filter((request) => request.status === 'pending').length,
        onPage: (await legend(page, 'Sending').textContent())?.replace(/\s+/g, ' ').trim(),
      }))
      .toEqual({ pending: 0, onPage: 'Sending 0' })
    // At most the request that was in flight when the connection went.
    expect(sandbox.requests().length).toBeLessThanOrEqual(sentWhenPaused + 1)
    await context.setOffline(false)
    await expect(progress(page).getByRole('heading', { name: 'Finished' })).toBeVisible({ timeout: 20_000 })
    expect(await syncStates(page, REMOTE_ADDRESS)).toEqual({ synced: 18, draft: 2 })
    await expect(page.getByRole('log')).toContainText('Back online: sending again.')

    // Offline again, the page says before any run that nothing reaches it until the connection is back.
    await context.setOffline(true)
    const note = page.getByRole('status').filter({ hasText: 'This computer is offline' })
    await expect(note).toHaveText(
      'This computer is offline: nothing reaches Remote service until the connection is back. A run started now waits, paused, and sends by itself once it is.',
    )
    await expect(
      page.getByRole('button', { name: 'Nothing new to create on Remote service' }),
    ).toHaveAccessibleDescription(/nothing reaches Remote service until the connection is back/)
  })

  test('offline, a sync to the Sandbox runs to the end: the Sandbox is on this computer', async ({
    page,
    context,
    pageProblems,
    sandbox,
  }) => {
    const seeded = await seedForSync(page, pageProblems, 20)
    await setSending(page, 'sandbox', { batchSize: 3 })
    await openSync(page)
    await context.setOffline(true)
    await page.getByRole('button', { name: 'Create 18 new on Sandbox' }).click()
    await expect(progress(page).getByRole('heading', { name: 'Finished' })).toBeVisible({ timeout: 20_000 })
    await expect(page.getByText(/^Paused/)).toHaveCount(0)
    await expect(page.getByRole('log')).toContainText('Done: 18 synced, 0 rejected, 0 failed, 0 unknown.')
    await expect(page.getByRole('log')).not.toContainText('sending paused')
    expect(await syncStates(page)).toEqual({ synced: 18, draft: 2 })
    expect(receivedBarcodes(sandbox).sort()).toEqual(
      seeded
        .filter((draft) => seededValid(draft.index))
        .map((draft) => draft.barcode)
        .sort(),
    )

    // Still offline, the page says syncing here works, beside the Start button it describes.
    const note = page.getByRole('status').filter({ hasText: 'This computer is offline' })
    await expect(note).toHaveText(
      'This computer is offline, and Sandbox is on this computer: syncing to it works offline.',
    )
    await expect(
      page.getByRole('button', { name: 'Nothing new to create on Sandbox' }),
    ).toHaveAccessibleDescription(/syncing to it works offline/)
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'sync-offline-sandbox')
  })
})
