import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  plugins: [vue()],
  test: {
    include: ['test/unit/**/*.test.ts'],
    // Renderer tests opt into a DOM with a `// @vitest-environment happy-dom` comment.
    environment: 'node',
    restoreMocks: true,
  },
})
