import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { onTestFinished, vi } from 'vitest'
import type { PreferenceStore, Preferences } from '#node/preferences.ts'
import { DEFAULT_BUDGETS } from '#shared/asset-checks/budgets.ts'
import { createPreviewAssetLoader } from '#node/preview-assets.ts'
import { createProfileStore } from '#node/profiles/profile-store.ts'
import { createTokenStore } from '#node/secrets/token-store.ts'
import type { EmbeddedSandbox, HandlerDeps, ServiceDeps } from '#main/handlers/types.ts'
import { createAppLog } from '#node/app-log.ts'
import { createFacePhotoStore } from '#node/face-photos.ts'
import { knownTokens, rememberingTokens } from '#node/secrets/known-tokens.ts'
import { createTeamWorkspace } from '#node/team/workspace-service.ts'
import { createUpdateService } from '#node/updates/update-service.ts'
import { createFakeKeychain } from '../secrets/fake-keychain.ts'

/**
 * Real profile and token stores for handler tests: profiles in a temporary folder of the test's
 * own, tokens in a keychain held in memory (the real Secret Service has tests of its own).
 */
export function serviceDeps(sandbox: EmbeddedSandbox = { url: 'http://127.0.0.1:9', token: 'sandbox' }) {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-desk-handlers-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  const keychain = createFakeKeychain()
  // As in main: every token that passes through the store is kept out of the log.
  const known = knownTokens()
  const tokens = rememberingTokens(
    createTokenStore({ service: 'Catalog Desk test', keychain: keychain.backend }),
    known,
  )
  const deps: ServiceDeps = { profiles: createProfileStore({ dir, tokens }), tokens, sandbox }
  // The team workspace over the same folder and keychain, joined by no test here (test/unit/team/).
  const team = createTeamWorkspace({ dataDir: dir, tokens, remember: known.remember })
  return {
    ...deps,
    ...previewAndClipboardDeps(),
    ...logAndUpdateDeps(dir, known.redact),
    keychain,
    dir,
    team,
  }
}

/** The repository's own resources folder: the preview samples as the app bundles them. */
export const resourcesDir = fileURLToPath(new URL('../../../resources', import.meta.url))

/**
 * The handler dependencies beside the service's: a real preview loader, the preferences (held in
 * memory here; preferences.test.ts tests the file), and a clipboard to inspect.
 */
function previewAndClipboardDeps() {
  let preferences: Preferences = {
    allowLocalAddresses: false,
    assetBudgets: structuredClone(DEFAULT_BUDGETS),
    updates: { automatic: true, feedAddress: '' },
  }
  const store: PreferenceStore = {
    current: () => preferences,
    update: async (change) => (preferences = { ...preferences, ...change }),
  }
  return {
    previewAssets: createPreviewAssetLoader({
      resourcesDir,
      allowLocalAddresses: () => preferences.allowLocalAddresses,
    }),
    preferences: store,
    writeClipboard: vi.fn<HandlerDeps['writeClipboard']>(),
  }
}

/**
 * Main's log in the test's folder (a real file, as main writes it), and the update service with no
 * feed: this build names none, and no updater is ever loaded (updates have tests of their own).
 */
function logAndUpdateDeps(dir: string, redact: (text: string) => string) {
  const log = createAppLog({ folder: join(dir, 'logs'), redact, console: false })
  let preferences: Preferences['updates'] = { automatic: true, feedAddress: '' }
  const updates = createUpdateService({
    loadUpdater: () => Promise.reject(new Error('no updater in handler tests')),
    preferences: {
      current: () => ({ allowLocalAddresses: false, assetBudgets: DEFAULT_BUDGETS, updates: preferences }),
      update: async (change) => {
        if (change.updates) preferences = change.updates
        return { allowLocalAddresses: false, assetBudgets: DEFAULT_BUDGETS, updates: preferences }
      },
    },
    log,
    currentVersion: '1.0.0',
    buildFeedFile: join(dir, 'no-app-update.yml'),
    dataDir: dir,
    installOnQuit: true,
    releaseKeys: [],
    // Main's dialog, answered yes: these tests are about the contract (updates.test.ts asks it).
    confirmFeedAddress: async () => true,
  })
  return {
    log,
    updates,
    openPath: vi.fn<HandlerDeps['openPath']>(async () => ''),
    dataDir: dir,
    redact,
    facePhotos: createFacePhotoStore({ dataDir: dir }),
    camera: { allowOnce: vi.fn<HandlerDeps['camera']['allowOnce']>() },
  }
}
