import { ref } from 'vue'
import type { ConnectionTest } from '#shared/ipc.ts'
import { profilesInMain } from '../../adapters/profiles.ts'

// The profiles store's connection tests: what the last test of each profile found, and which one
// is running. A part of its own: a test asks main and keeps its answer; it changes no profile.

export function useConnectionTests() {
  const tests = ref<Record<string, ConnectionTest>>({})
  const testing = ref<string>()
  /** The last "Test both" of each profile: raw, then base64. */
  const encodingTests = ref<Record<string, { raw: ConnectionTest; base64: ConnectionTest }>>({})

  /** Runs one test of profile `id`, as the one running. */
  async function running(id: string, test: () => Promise<void>) {
    testing.value = id
    try {
      await test()
    } finally {
      testing.value = undefined
    }
  }

  return {
    tests,
    testing,
    encodingTests,
    async testConnection(id: string) {
      await running(id, async () => {
        tests.value[id] = await profilesInMain.testConnection(id)
      })
    },
    /**
     * The connection test once with each encoding, raw first: which one the service accepts. The
     * profile keeps its own setting; each request is an empty batch, so nothing is created.
     */
    async testBothEncodings(id: string) {
      await running(id, async () => {
        const raw = await profilesInMain.testConnection(id, 'raw')
        const base64 = await profilesInMain.testConnection(id, 'base64')
        encodingTests.value[id] = { raw, base64 }
      })
    },
  }
}
