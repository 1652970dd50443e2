import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    // Renderer modules under test need no DOM: Dexie runs on fake-indexeddb, stores on plain Pinia.
    environment: 'node',
    restoreMocks: true,
    // Vitest's 5 s and 10 s are a guard against a hang, not a goal (goals are benchmarks): a busy
    // machine (CI beside other work) timed out a test that builds a 6,000-row report and a hook
    // that builds an XLSX bomb, both well inside these when the machine is quiet.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
