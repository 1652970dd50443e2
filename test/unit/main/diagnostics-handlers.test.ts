import { access, readFile } from 'node:fs/promises'
import { release } from 'node:os'
import { describe, expect, it, vi } from 'vitest'
import { createHandlers } from '#main/handlers/index.ts'
import type { HandlerDeps } from '#main/handlers/types.ts'
import { createDispatcher } from '#main/ipc-dispatch.ts'
import { tokenForms } from '#node/secrets/redaction.ts'
import type { AppInfo } from '#shared/ipc.ts'
import { serviceDeps } from './service-deps.ts'

// Settings › Logs and diagnostics, and what the handlers write to main's log, through the contract.

const TOKEN = 'pxb_live_Zm9vYmFyLXNlY3JldA+/x='
const info: AppInfo = {
  name: 'Catalog Desk',
  version: '1.2.3',
  versions: { electron: '45.4.1', chrome: '142.0.7444.0', node: '22.20.0' },
  platform: process.platform,
}

function setup() {
  const deps = {
    ...serviceDeps(),
    appInfo: vi.fn<HandlerDeps['appInfo']>(() => info),
    openExternal: vi.fn<HandlerDeps['openExternal']>(async () => {}),
  } satisfies HandlerDeps
  const dispatch = createDispatcher(createHandlers(deps), deps.log)
  return { deps, dispatch }
}

describe('Copy diagnostics', () => {
  it('says the versions, the system, the folders, the profiles by address and the last problems: never a token', async () => {
    const { deps, dispatch } = setup()
    await dispatch('setToken', ['production', TOKEN])
    // Some code logs a request whole, token and all, then fails.
    deps.log.error('request failed', {
      url: 'https://api.pixelbin.io/service/platform/skus',
      headers: { authorization: `Bearer ${Buffer.from(TOKEN).toString('base64')}`, 'x-token': TOKEN },
    })
    await expect(dispatch('openExternal', ['http://example.com/'])).rejects.toThrow(/invalid arguments/)

    const text = (await dispatch('getDiagnostics', [])) as string
    expect(text).toMatch(/^Catalog Desk diagnostics, \d{4}-\d\d-\d\dT/)
    for (const line of [
      'App: Catalog Desk 1.2.3',
      'Electron: 45.4.1',
      'Chrome: 142.0.7444.0',
      'Node: 22.20.0',
      `OS: ${process.platform} ${release()} (${process.arch})`,
      `Data folder: ${deps.dataDir}`,
      `Logs folder: ${deps.log.folder}`,
      'Updates: not-set-up; automatic checks on; feed: none; last check: never',
      'Profiles (3; active: Sandbox):',
      '- Sandbox [sandbox]: http://127.0.0.1:9, the embedded sandbox (no token needed)',
      '- Production [production]: https://api.pixelbin.io, a token in the keychain',
      '- Staging [staging]: https://api.pixelbinz0.de, no token',
    ]) {
      expect(text).toContain(line)
    }
    expect(text).toMatch(/Last problems in the log \(2, oldest first\):\n {2}\[.+\] \[error\] request failed/)
    expect(text).toMatch(/\[warn\]\s+IPC openExternal: invalid arguments/)
    for (const form of tokenForms(TOKEN)) {
      expect(text).not.toContain(form)
      expect(await readFile(deps.log.file, 'utf8')).not.toContain(form)
    }
  })
})

describe('Open logs folder', () => {
  it("opens the log's folder, made if nothing was written yet", async () => {
    const { deps, dispatch } = setup()
    await dispatch('openLogsFolder', [])
    expect(deps.openPath).toHaveBeenCalledExactlyOnceWith(deps.log.folder)
    await access(deps.log.folder)
  })

  it('says why when the file manager could not open it, and where the folder is', async () => {
    const { deps, dispatch } = setup()
    deps.openPath.mockResolvedValueOnce('No application is registered for folders')
    await expect(dispatch('openLogsFolder', [])).rejects.toThrow(
      `The logs folder could not be opened (No application is registered for folders). It is ${deps.log.folder}`,
    )
  })
})

describe('Settings › Updates through the contract', () => {
  it.each([
    ['http to another computer', 'http://updates.example.com/desk'],
    ['a user name and password', 'https://me:pw@updates.example.com/desk'],
    ['a query', 'https://updates.example.com/desk?channel=beta'],
    ['not an address', 'updates.example.com'],
  ])('refuses a feed address with %s', async (_case, feedAddress) => {
    const { dispatch } = setup()
    await expect(dispatch('setUpdateSettings', [{ automatic: true, feedAddress }])).rejects.toThrow(
      /IPC setUpdateSettings: invalid arguments: argument 1\.feedAddress: Enter the feed address as https:\/\/host\/folder/,
    )
  })

  it('keeps an https address, or http to this computer, without its trailing slash', async () => {
    const { dispatch } = setup()
    await expect(
      dispatch('setUpdateSettings', [
        { automatic: false, feedAddress: ' https://updates.example.com/desk/ ' },
      ]),
    ).resolves.toMatchObject({
      phase: 'idle',
      feed: 'address',
      settings: { automatic: false, feedAddress: 'https://updates.example.com/desk' },
    })
    await expect(
      dispatch('setUpdateSettings', [{ automatic: true, feedAddress: 'http://127.0.0.1:8080/feed' }]),
    ).resolves.toMatchObject({ settings: { automatic: true, feedAddress: 'http://127.0.0.1:8080/feed' } })
  })

  it('"Restart to update" with nothing downloaded is refused in words', async () => {
    const { dispatch } = setup()
    await expect(dispatch('installUpdate', [])).rejects.toThrow(
      'No update is ready to install: check for updates first.',
    )
  })
})

describe("what the handlers write to main's log", () => {
  it('profile switches, tokens set (not the token), and each request a sync run sent, with its outcome', async () => {
    const { deps, dispatch } = setup()
    await dispatch('activateProfile', ['staging'])
    await dispatch('setToken', ['staging', TOKEN])
    await dispatch('reportActivity', [{ sync: true, import: false }])
    // The embedded sandbox of these tests listens nowhere: the request cannot connect.
    await dispatch('activateProfile', ['sandbox'])
    await dispatch('syncSend', [
      'sandbox',
      'embedded-sandbox',
      { operation: 'bulk-upload', argument: [{ barcode: '1' }, { barcode: '2' }] },
      'run-1/engine/1',
    ])
    await dispatch('reportActivity', [{ sync: false, import: false }])
    const written = await readFile(deps.log.file, 'utf8')
    expect(written).toContain('Active profile: "Staging" [staging] at https://api.pixelbinz0.de.')
    expect(written).toContain('Token set for [staging], kept in the keychain.')
    expect(written).toContain('A sync run started in the window.')
    expect(written).toMatch(
      /\[warn\]\s+Sync: 2 SKUs sent to embedded-sandbox with \[sandbox\]: unreachable in \d+ ms: /,
    )
    expect(written).toContain('The sync run ended.')
    for (const form of tokenForms(TOKEN)) expect(written).not.toContain(form)
  })
})
