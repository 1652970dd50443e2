import { resolve } from 'node:path'
import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'electron-vite'
import type { Plugin } from 'vite'

/**
 * Vite's dev server injects styles as <style> elements and talks to the page over a websocket;
 * the production CSP forbids both. Relax the policy for the dev server only, never for a build.
 */
function devServerCsp(): Plugin {
  return {
    name: 'catalog-desk:dev-server-csp',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html
        .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
        .replace("connect-src 'self'", "connect-src 'self' ws: http://localhost:*"),
  }
}

export default defineConfig({
  main: {
    build: {
      rollupOptions: { input: { index: resolve('src/main/index.ts') } },
    },
  },
  preload: {
    build: {
      // A sandboxed preload cannot load modules: bundle everything into one CommonJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [vue(), devServerCsp()],
    // fflate's asynchronous zip() makes blob: workers, which the CSP refuses: see the module.
    resolve: {
      alias: [{ find: /^fflate$/, replacement: resolve('src/renderer/fflate-without-workers.ts') }],
    },
    build: {
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
      // electron-vite leaves the renderer unminified; minified, it is less than half the size
      // (three.js alone 1.55 MB → 0.67 MB), which is what the window parses at every start. No
      // source maps in what users get: `npm run dev` has them, a build asked with --sourcemap too.
      minify: 'oxc',
      sourcemap: false,
      // three.js is one chunk of ~0.67 MB minified, loaded only when the preview opens.
      chunkSizeWarningLimit: 700,
    },
  },
})
