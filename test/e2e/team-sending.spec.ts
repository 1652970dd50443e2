import { DEFAULT_SENDING, type Profile } from '#shared/profile.ts'
import type { Page } from '@playwright/test'
import type { SeededDraft } from '../../bench/seed-drafts.ts'
import { axe, expect, screenshot, test, type TestFixtures } from './harness/fixtures.ts'
import { saved } from './harness/editor-page.ts'
import { grid } from './harness/list-page.ts'
import { joinTeamWorkspace } from './harness/settings-page.ts'
import { addActiveProfile, seededValid, seedForSync, STAND_IN_TOKEN } from './harness/sync-setup.ts'
import { openSync, progress, receivedBarcodes, reloadWhileMainWaits } from './harness/sync-page.ts'
import { basic, type Credentials } from './harness/team-server.ts'
import { TEAM_FORMAT } from '#shared/team/shared-documents.ts'
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

/**
 * Ana's desk with ten seeded drafts (nine valid), Ben's with them arrived, both joined to one
 * workspace and sending to Production. `anaStops`: Ana's desk is one of its own, which the test
 * may close (Ben's is the test's page); else Ana's is the test's page. `anaBatch`: her drafts a
 * request (one by default, so a run lasts while the other desk acts).
 */
async function twoDesks(
  { page, pageProblems, teamServer, openDesk, reachedThroughSandbox }: DeskFixtures,
  { anaStops = false, anaBatch = 1 } = {},
): Promise<{ ana: Page; ben: Page; seeded: SeededDraft[] }> {
  const workspaceUrl = await teamServer.createWorkspace('autumn', [ANA, BEN])
  reachedThroughSandbox.add(PRODUCTION.id)
  const ana = anaStops ? await openDesk() : page
  const ben = anaStops ? page : await openDesk()
  const seeded = await seedForSync(ana, pageProblems, 10)
  await addActiveProfile(ana, { ...PRODUCTION, batchSize: anaBatch }, STAND_IN_TOKEN)
  await joinTeamWorkspace(ana, workspaceUrl, ANA)
  await ben.route(`https://${IMAGE_HOST}/**`, (route) => route.fulfill({ status: 404, body: '' }))
  await joinTeamWorkspace(ben, workspaceUrl, BEN)
  await addActiveProfile(ben, PRODUCTION, STAND_IN_TOKEN)
  await ben.goto('/#/skus')
  await expect(grid(ben).getByRole('row')).toHaveCount(11, ARRIVES)
  return { ana, ben, seeded }
}

/** Ana's desk alone in the workspace, with ten seeded drafts (nine valid), sending to Production. */
async function anaAlone({
  page,
  pageProblems,
  teamServer,
  reachedThroughSandbox,
}: Omit<DeskFixtures, 'openDesk'>): Promise<string> {
  const workspaceUrl = await teamServer.createWorkspace('autumn', [ANA])
  reachedThroughSandbox.add(PRODUCTION.id)
  await seedForSync(page, pageProblems, 10)
  await addActiveProfile(page, PRODUCTION, STAND_IN_TOKEN)
  await joinTeamWorkspace(page, workspaceUrl, ANA)
  return workspaceUrl
}

type DeskFixtures = Pick<
  TestFixtures,
  'pageProblems' | 'teamServer' | 'openDesk' | 'reachedThroughSandbox'
> & {
  page: Page
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
    const { ben, seeded } = await twoDesks({
      page,
      pageProblems,
      teamServer,
      openDesk,
      reachedThroughSandbox,
    })

    // Ana's run sends one draft a second; Ben starts his while hers is under way.
    sandbox.addFaults([{ kind: 'latency', delayMs: 1_000, times: null }])
    await openSync(page)
    await page.getByRole('button', { name: 'Create 9 new on Production' }).click()
    await expect.poll(() => sandbox.requests().length).toBeGreaterThanOrEqual(1)
    // Nine, or fewer when Ana's first outcomes reached Ben's desk first: none left for his run.
    await openSync(ben)
    await ben.getByRole('button', { name: /^Create \d new on Production$/ }).click()
    await expect(ben.getByRole('log')).toContainText(
      /\d drafts? left out \(8901\d+(, 8901\d+)*( and \d+ more)?\): ana’s desk is sending (them|it) to Production\./,
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
    // Ana's desk is one the test can stop: its window closes mid-send.
    const desks = { page, pageProblems, teamServer, openDesk, reachedThroughSandbox }
    const { ana, seeded } = await twoDesks(desks, { anaStops: true })
    const valid = seeded.filter((draft) => seededValid(draft.index)).map((draft) => draft.barcode)

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
      /6 drafts left out \(8901\d+, 8901\d+, 8901\d+, 8901\d+, 8901\d+ and 1 more\): ana’s desk was sending them to Production and stopped \(its claim ran out .+\); whether Production created them is not known: decide in the history below\./,
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

  test('another desk decides about a stopped desk’s drafts from its history: marked created on the platform’s word, and the team sees who decided', async ({
    page,
    pageProblems,
    teamServer,
    openDesk,
    sandbox,
    reachedThroughSandbox,
  }) => {
    const desks = { page, pageProblems, teamServer, openDesk, reachedThroughSandbox }
    const { ana, seeded } = await twoDesks(desks, { anaStops: true, anaBatch: 50 })

    // One request with all nine: stored, its answer never coming; then Ana's window closes.
    sandbox.addFaults([{ kind: 'slow-response', stage: 'after', delayMs: 600_000, times: 1 }])
    await openSync(ana)
    await ana.getByRole('button', { name: 'Create 9 new on Production' }).click()
    await expect.poll(() => receivedBarcodes(sandbox).length, { timeout: 30_000 }).toBe(9)
    await ana.close()
    teamServer.setClockSkew(3 * 60_000)

    await openSync(page)
    await page.getByRole('button', { name: 'Create 9 new on Production' }).click()
    await expect(progress(page).getByRole('heading', { name: 'Finished' })).toBeVisible()
    const decision = page.getByRole('article', { name: '9 sent by ana’s desk: outcome unknown' })
    await expect(decision).toBeVisible()
    // All nine are on the platform: Ben marks them created, asked first.
    await decision.getByRole('button', { name: 'Mark as created…' }).click()
    const asked = page.getByRole('alertdialog')
    await expect(asked).toContainText('Mark 9 SKUs as created without sending?')
    expect(await axe(page)).toEqual([])
    await asked.getByRole('button', { name: 'Mark 9 SKUs as created' }).click()
    await expect(page.getByRole('log')).toContainText(
      '9 drafts ana’s desk sent marked as created, as you decided: every desk of the team sees it.',
    )
    await expect(decision).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Nothing new to create on Production' })).toBeVisible()

    // The draft says who sent it and who decided; the workspace holds Ben's decision for every desk.
    const sent = seeded.find((draft) => seededValid(draft.index))!
    await page.goto(`/#/skus/${sent.id}`)
    const banner = page.locator('.sent-banner')
    await expect(banner).toContainText('Sent by ana’s desk')
    await banner.getByText(/^History/).click()
    await expect(banner).toContainText('(sent by ana’s desk): synced: Marked as created by ben')
    await screenshot(page, 'team-sending-decided')
    expect(receivedBarcodes(sandbox)).toHaveLength(9)
  })

  test('a desk whose window reloads mid-send still tells the team what the service answered: the other desk sees them created', async ({
    page,
    pageProblems,
    teamServer,
    openDesk,
    sandbox,
    reachedThroughSandbox,
  }) => {
    const { ben, seeded } = await twoDesks(
      { page, pageProblems, teamServer, openDesk, reachedThroughSandbox },
      { anaBatch: 50 },
    )
    // Ana's window reloads while main waits on the service for her one request of nine.
    await openSync(page)
    await reloadWhileMainWaits(page, sandbox, 'Create 9 new on Production')
    // Main's answer is written on Ana's desk, and as the run's send records for Ben's.
    await expect(page.getByRole('button', { name: 'Nothing new to create on Production' })).toBeVisible(
      ARRIVES,
    )
    const sent = seeded.find((draft) => seededValid(draft.index))!
    await ben.goto(`/#/skus/${sent.id}`)
    await expect(ben.locator('.sent-banner')).toContainText(
      'Created on Production; unchanged since.',
      ARRIVES,
    )
    await expect(ben.locator('.sent-banner')).toContainText('Sent by ana’s desk')
    expect(receivedBarcodes(sandbox)).toHaveLength(9)
  })

  // A tryout corrected a SKU created on Production from a team workspace: the run left it out as
  // "sent there already" by the desk's own creation record, sent nothing, and offered it for ever.
  test('a SKU created on Production from a team workspace is corrected there: the update is sent once, from either desk', async ({
    page,
    pageProblems,
    teamServer,
    openDesk,
    sandbox,
    reachedThroughSandbox,
  }) => {
    const { ben, seeded } = await twoDesks(
      { page, pageProblems, teamServer, openDesk, reachedThroughSandbox },
      { anaBatch: 10 },
    )
    await openSync(page)
    await page.getByRole('button', { name: 'Create 9 new on Production' }).click()
    await expect(page.getByRole('log')).toContainText('Done: 9 synced, 0 rejected, 0 failed, 0 unknown.')

    const [mine, theirs] = seeded.filter((draft) => seededValid(draft.index))
    const corrections = [
      { desk: page, name: 'ana', draft: mine!, brand: 'Northwind Optics Revised' },
      { desk: ben, name: 'ben', draft: theirs!, brand: 'Contoso Eyewear Revised' },
    ]
    for (const { desk, draft, brand } of corrections) {
      await desk.goto(`/#/skus/${draft.id}`)
      await expect(desk.locator('.sent-banner')).toContainText(
        'Created on Production; unchanged since.',
        ARRIVES,
      )
      await desk.getByLabel('Brand', { exact: true }).fill(brand)
      await saved(desk)
      await openSync(desk)
      const update = desk.getByRole('button', { name: 'Update 1 changed on Production' })
      await update.click()
      await expect(desk.getByRole('log')).toContainText('Done: 1 updated, 0 rejected, 0 failed, 0 unknown.')
      await expect(update).toHaveCount(0)
    }
    // Each desk knows what the other's correction made stand there: nothing left to update.
    for (const desk of [page, ben]) {
      for (const { draft, name } of corrections) {
        await desk.goto(`/#/skus/${draft.id}`)
        await expect(desk.locator('.sent-banner')).toContainText(
          'Created on Production; unchanged since.',
          ARRIVES,
        )
        // Who created it there, and whose correction stands there now.
        await expect(desk.locator('.sent-banner__sender')).toContainText(
          new RegExp(`^Sent by ana’s desk, .+; updated by ${name}’s desk, .+\\.\\s*$`),
        )
      }
      await openSync(desk)
      await expect(desk.getByRole('region', { name: 'Changed since created on Production' })).toHaveCount(0)
    }
    const methods = sandbox.requests().map((request) => request.method)
    expect(methods).toEqual(['POST', 'PUT', 'PUT'])
    const stored = sandbox.received().skus
    for (const { draft, brand } of corrections) {
      const entry = stored.find((one) => (one.sku as { barcode: string }).barcode === draft.barcode)!
      expect(entry.updates.map((update) => update.body)).toEqual([{ brand }])
    }
    await screenshot(ben, 'team-sending-update')
  })

  // Desks of a team update at different times. One of an earlier version cannot read a newer
  // desk's send records (it sets them aside), and would offer that desk's drafts for creation again.
  test('a desk of an earlier version than another desk of the team sends nothing to a shared destination, and says to update', async ({
    page,
    pageProblems,
    teamServer,
    sandbox,
    reachedThroughSandbox,
  }) => {
    const workspaceUrl = await anaAlone({ page, pageProblems, teamServer, reachedThroughSandbox })
    // Carol's desk, of a version to come, raised the workspace's format past this one's.
    const written = await fetch(`${workspaceUrl}/format`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', Authorization: basic(ANA) },
      body: JSON.stringify({ type: 'format', format: TEAM_FORMAT + 1, desk: 'carol', at: Date.now() }),
    })
    expect(written.status).toBe(201)
    await openSync(page)
    await page.getByRole('button', { name: 'Create 9 new on Production' }).click()
    await expect(page.getByRole('log')).toContainText(
      `Nothing was sent to Production: from a team workspace, the drafts are claimed on its server first, so that no two desks send them. A newer Catalog Desk runs on carol’s desk: it records what it sends in a form this one cannot read (the workspace’s format ${TEAM_FORMAT + 1}, this desk’s ${TEAM_FORMAT}), so this desk could send again what that desk created. Update Catalog Desk on this desk, then send.`,
    )
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'team-sending-newer-desk')
    expect(sandbox.requests()).toHaveLength(0)
  })

  test('with the workspace’s server out of reach, the Sync page says so and sends nothing to a shared destination', async ({
    page,
    pageProblems,
    teamServer,
    sandbox,
    reachedThroughSandbox,
  }) => {
    await anaAlone({ page, pageProblems, teamServer, reachedThroughSandbox })
    await openSync(page)
    await expect(page.getByRole('region', { name: 'SKUs to send' })).toContainText(
      'Sent as ana’s desk of the team workspace: each draft is claimed on its server first, so no two desks send it',
    )

    teamServer.pause()
    await page.goto('/#/settings')
    await expect(page.getByRole('region', { name: 'Team workspace' }).getByRole('status')).toHaveText(
      'Offline: will retry',
      ARRIVES,
    )
    await openSync(page)
    const note = page.getByRole('region', { name: 'SKUs to send' }).getByRole('status').filter({
      hasText: 'server is out of reach',
    })
    await expect(note).toHaveText(
      "The team workspace's server is out of reach: nothing can be sent to Production until it answers, since each draft is claimed there first so that no two desks send it.",
    )
    await page.getByRole('button', { name: 'Create 9 new on Production' }).click()
    await expect(page.getByRole('log')).toContainText(
      'Nothing was sent to Production: from a team workspace, the drafts are claimed on its server first',
    )
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'team-sending-unreachable')
    expect(sandbox.requests()).toHaveLength(0)
  })
})
