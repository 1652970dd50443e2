import { DEFAULT_SENDING, type Profile } from '#shared/profile.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { grid } from './harness/list-page.ts'
import { joinTeamWorkspace } from './harness/settings-page.ts'
import { addActiveProfile, seededValid, seedForSync } from './harness/sync-setup.ts'
import { openSync, progress, receivedBarcodes } from './harness/sync-page.ts'
import type { Credentials } from './harness/team-server.ts'
import { IMAGE_HOST } from '../../bench/seed-drafts.ts'

const ANA: Credentials = { username: 'ana', password: 'ana-autumn-pass' }
const BEN: Credentials = { username: 'ben', password: 'ben-autumn-pass' }

/** Replication and the exchange each take their turn: a second or two on loopback. */
const ARRIVES = { timeout: 20_000 }

/**
 * The team's Production: an address elsewhere on the network (so it is claimed), whose requests
 * the test sends to its sandbox. One request a draft, so a run lasts while the other desk tries.
 */
const PRODUCTION: Profile = {
  ...DEFAULT_SENDING,
  timeouts: { ...DEFAULT_SENDING.timeouts },
  id: 'production',
  name: 'Production',
  kind: 'service',
  baseUrl: 'https://api.catalog-team.example',
  batchSize: 1,
  concurrency: 1,
}

test.describe('Sending as a team (issue #42)', () => {
  test.slow()

  test('drafts another desk is sending are left out of this desk’s run, naming that desk; once sent, both desks show them created by that desk, and the service gets each once', async ({
    page,
    pageProblems,
    teamServer,
    openDesk,
    sandbox,
    reachedThroughSandbox,
  }) => {
    const workspaceUrl = await teamServer.createWorkspace('autumn', [ANA, BEN])
    reachedThroughSandbox.add(PRODUCTION.id)
    const seeded = await seedForSync(page, pageProblems, 10)
    await addActiveProfile(page, PRODUCTION)
    await joinTeamWorkspace(page, workspaceUrl, ANA)
    const ben = await openDesk()
    await ben.route(`https://${IMAGE_HOST}/**`, (route) => route.fulfill({ status: 404, body: '' }))
    await joinTeamWorkspace(ben, workspaceUrl, BEN)
    await addActiveProfile(ben, PRODUCTION)
    await ben.goto('/#/skus')
    await expect(grid(ben).getByRole('row')).toHaveCount(11, ARRIVES)

    // Ana's run sends one draft a second; Ben starts his while hers is under way.
    sandbox.addFaults([{ kind: 'latency', delayMs: 1_000, times: null }])
    await openSync(page)
    await page.getByRole('button', { name: 'Create 9 new on Production' }).click()
    await expect.poll(() => sandbox.requests().length).toBeGreaterThanOrEqual(1)
    await openSync(ben)
    await ben.getByRole('button', { name: 'Create 9 new on Production' }).click()
    await expect(ben.getByRole('log')).toContainText(
      '9 drafts left out: ana’s desk is sending them to Production.',
    )
    await expect(progress(ben).getByRole('heading', { name: 'Finished' })).toBeVisible()
    expect(await axe(ben)).toEqual([])
    await screenshot(ben, 'team-sending-held')

    await expect(progress(page).getByRole('heading', { name: 'Finished' })).toBeVisible({ timeout: 30_000 })
    const barcodes = receivedBarcodes(sandbox)
    expect(barcodes).toHaveLength(9)
    expect(new Set(barcodes).size).toBe(9)
    // Every request the sandbox had came from Ana's run: Ben's sent nothing there.
    expect(sandbox.requests()).toHaveLength(9)

    // Ana's send records reach Ben's desk: nothing is offered for creation there again, and his
    // history and each draft name her desk, as hers do.
    await expect(ben.getByRole('button', { name: 'Nothing new to create on Production' })).toBeVisible(
      ARRIVES,
    )
    await expect(ben.getByRole('region', { name: 'History' })).toContainText(
      'to Production, sent by ana’s desk',
    )
    await screenshot(ben, 'team-sending-history')
    const sent = seeded.find((draft) => seededValid(draft.index))!
    for (const desk of [page, ben]) {
      await desk.goto(`/#/skus/${sent.id}`)
      const banner = desk.locator('.sent-banner')
      await expect(banner).toContainText('Created on Production; unchanged since.')
      await expect(banner).toContainText('Sent by ana’s desk')
    }
    expect(await axe(ben)).toEqual([])
    await screenshot(ben, 'team-sending-recorded')
    expect(sandbox.requests()).toHaveLength(9)
  })

  test('a desk stopped mid-send: once its claims run out, another desk finds what it left undecided, settles it with the platform’s list, and the service holds each SKU once', async ({
    page,
    pageProblems,
    teamServer,
    openDesk,
    sandbox,
    reachedThroughSandbox,
  }) => {
    const workspaceUrl = await teamServer.createWorkspace('autumn', [ANA, BEN])
    reachedThroughSandbox.add(PRODUCTION.id)
    // Ana's desk is one the test can stop: its window closes mid-send.
    const ana = await openDesk()
    const seeded = await seedForSync(ana, pageProblems, 10)
    const valid = seeded.filter((draft) => seededValid(draft.index)).map((draft) => draft.barcode)
    await addActiveProfile(ana, PRODUCTION)
    await joinTeamWorkspace(ana, workspaceUrl, ANA)
    await page.route(`https://${IMAGE_HOST}/**`, (route) => route.fulfill({ status: 404, body: '' }))
    await joinTeamWorkspace(page, workspaceUrl, BEN)
    await addActiveProfile(page, PRODUCTION)
    await page.goto('/#/skus')
    await expect(grid(page).getByRole('row')).toHaveCount(11, ARRIVES)

    // Three requests answered; the fourth stored, its answer never coming; then Ana's window closes.
    sandbox.addFaults([
      { kind: 'latency', delayMs: 300, times: 3 },
      { kind: 'slow-response', stage: 'after', delayMs: 600_000, times: 1 },
    ])
    await openSync(ana)
    await ana.getByRole('button', { name: 'Create 9 new on Production' }).click()
    await expect.poll(() => receivedBarcodes(sandbox).length, { timeout: 30_000 }).toBe(4)
    await ana.close()

    // Her claims hold two minutes by the server's clock, and nothing renews them: three pass there.
    teamServer.setClockSkew(3 * 60_000)
    await openSync(page)
    await page.getByRole('button', { name: /^Create \d new on Production$/ }).click()
    await expect(page.getByRole('log')).toContainText(
      /6 drafts left out: ana’s desk was sending them to Production and stopped \(its claim ran out .+\); whether Production created them is not known: decide in the history below\./,
    )
    await expect(progress(page).getByRole('heading', { name: 'Finished' })).toBeVisible()
    await expect(page.getByRole('region', { name: 'History' })).toContainText(
      'to Production, sent by ana’s desk',
    )
    const panel = page.getByRole('region', { name: 'Check the platform' })
    await expect(panel).toContainText('6 drafts sent to Production may or may not be there')
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'team-sending-stopped')

    // What the platform has settles them: the fourth marked created, the five never sent sent again.
    const platform = receivedBarcodes(sandbox)
    const choosing = page.waitForEvent('filechooser')
    await panel.getByText('Import a list from the platform…').click()
    await (
      await choosing
    ).setFiles({
      name: 'platform-barcodes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(`${platform.join('\n')}\n`),
    })
    const dialog = page.getByRole('dialog', { name: 'The platform’s list platform-barcodes.txt' })
    await dialog.getByRole('radio', { name: /Send again/ }).check()
    await dialog.getByRole('button', { name: 'Mark 1 as created and send 5 again' }).click()
    await expect(page.getByRole('log')).toContainText('Done: 5 synced, 0 rejected, 0 failed, 0 unknown.', {
      timeout: 30_000,
    })

    // Each valid draft is on the platform once: nothing was created twice.
    const received = receivedBarcodes(sandbox)
    expect([...received].sort()).toEqual([...valid].sort())
    expect(new Set(received).size).toBe(received.length)
  })
})
