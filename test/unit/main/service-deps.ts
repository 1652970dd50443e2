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
import { createFakeKeychain } from '../secrets/fake-keychain.ts'

/**
 * Real profile and token stores for handler tests: profiles in a temporary folder of the test's
 * own, tokens in a keychain held in memory (the real Secret Service has tests of its own).
 */
export function serviceDeps(sandbox: EmbeddedSandbox = { url: 'http://127.0.0.1:9', token: 'sandbox' }) {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-desk-handlers-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  const keychain = createFakeKeychain()
  const tokens = createTokenStore({ service: 'Catalog Desk test', keychain: keychain.backend })
  const deps: ServiceDeps = { profiles: createProfileStore({ dir, tokens }), tokens, sandbox }
  return { ...deps, ...previewAndClipboardDeps(), keychain, dir }
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
