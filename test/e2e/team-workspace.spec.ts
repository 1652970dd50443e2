import { readFile } from 'node:fs/promises'
import { WORKSPACE_SECRET_ID } from '#node/team/workspace-service.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { openSettings } from './harness/settings-page.ts'

const ANA = { username: 'ana', password: 'ana-autumn-pass' }

test.describe('Settings › Team workspace (issue #41)', () => {
  test('joins a workspace with the keyboard, shows it up to date under the server’s name, and leaves it when asked', async ({
    page,
    teamServer,
    tokens,
    bridgeResults,
    mainLog,
  }) => {
    const workspaceUrl = await teamServer.createWorkspace('autumn', [ANA])
    await openSettings(page)
    const team = page.getByRole('region', { name: 'Team workspace' })
    const password = team.getByLabel('Password', { exact: true })

    await team.getByLabel('Workspace address').fill(workspaceUrl)
    await team.getByLabel('User name').fill(ANA.username)
    await password.fill('not-ana-pass')
    await password.press('Enter')
    await expect(team.getByRole('alert')).toHaveText(
      `The server at ${teamServer.url} does not know this name and password.`,
    )
    // The page held the password no longer than the join.
    await expect(password).toHaveValue('')

    await password.fill(ANA.password)
    await password.press('Enter')
    await expect(team.getByRole('status')).toHaveText('Up to date')
    await expect(team.getByText(ANA.username, { exact: true })).toBeVisible()
    await expect(team.getByRole('button', { name: 'Leave workspace' })).toBeFocused()
    expect(await tokens.has(WORKSPACE_SECRET_ID, workspaceUrl)).toMatchObject({ isSet: true })
    // The password went to main and never came back, nor reached the log.
    expect(JSON.stringify(bridgeResults)).not.toContain(ANA.password)
    await expect
      .poll(() => readFile(mainLog.file, 'utf8'))
      .toContain(`Team workspace joined: ${workspaceUrl} as ana`)
    expect(await readFile(mainLog.file, 'utf8')).not.toContain(ANA.password)
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'settings-team-workspace')

    await page.keyboard.press('Enter')
    const asking = page.getByRole('alertdialog', { name: 'Leave the team workspace?' })
    await expect(asking).toContainText(`stops sharing drafts with ${workspaceUrl}`)
    // Focus starts on "Stay in it": Escape keeps the workspace.
    await page.keyboard.press('Escape')
    await expect(asking).toBeHidden()
    await expect(team.getByRole('status')).toHaveText('Up to date')

    await team.getByRole('button', { name: 'Leave workspace' }).click()
    await asking.getByRole('button', { name: 'Leave workspace' }).click()
    await expect(team.getByLabel('Workspace address')).toBeFocused()
    await expect(team.getByRole('button', { name: 'Join' })).toBeDisabled()
    expect(await tokens.has(WORKSPACE_SECRET_ID, workspaceUrl)).toMatchObject({ isSet: false })
  })
})
