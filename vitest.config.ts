import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    // Renderer modules under test need no DOM: Dexie runs on fake-indexeddb, stores on plain Pinia.
    environment: 'node',
    restoreMocks: true,
  },
})
