import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'
import { createProfileStore } from '../../../src/main/profiles/profile-store.ts'
import { createTokenStore } from '../../../src/main/secrets/token-store.ts'
import type { EmbeddedSandbox, ServiceDeps } from '../../../src/main/service-handlers.ts'
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
  return { ...deps, keychain, dir }
}
