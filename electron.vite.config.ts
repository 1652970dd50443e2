import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, extname, join, resolve } from 'node:path'
import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'electron-vite'
import type { ChunkingContext } from 'rolldown'
import type { Plugin } from 'vite'
import { CONTENT_TYPES } from './src/node/app-files.ts'

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

/**
 * Files the page fetches by fixed names from its own origin (connect-src 'self'), beside
 * index.html: the try-on's sample portraits under faces/ (resources/faces/, see its SOURCES.md) and
 * the face-landmark model under face-model/ (try-on/face-worker.ts). Not imported as `?url` assets:
 * a model.json names its weights file relative to itself, so hashed names would break it. Keys are
 * the paths under the page's folder, values the files.
 */
function fixedNameFiles(): Map<string, string> {
  const require = createRequire(import.meta.url)
  // Both packages' `main` is their Node build in dist/; human's models/ sits beside its dist/.
  const humanModels = join(dirname(require.resolve('@vladmandic/human')), '..', 'models')
  const tfjsWasm = dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))
  const files = new Map<string, string>()
  for (const name of readdirSync('resources/faces').filter((name) => !name.endsWith('.md')))
    files.set(`faces/${name}`, resolve('resources/faces', name))
  // Only the models the worker's configuration turns on: the face box, the mesh and the irises.
  for (const model of ['blazeface', 'facemesh', 'iris'])
    for (const ext of ['json', 'bin'])
      files.set(`face-model/${model}.${ext}`, join(humanModels, `${model}.${ext}`))
  // tfjs picks one by the browser's support (SIMD or not); the threaded build needs cross-origin
  // isolation, which the app does not have.
  for (const name of ['tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm.wasm'])
    files.set(`face-model/${name}`, join(tfjsWasm, name))
  return files
}

/** Copies the fixed-name files into the build, and serves them from the dev server. */
function fixedNameAssets(): Plugin {
  const files = fixedNameFiles()
  return {
    name: 'catalog-desk:fixed-name-assets',
    generateBundle() {
      for (const [fileName, file] of files)
        this.emitFile({ type: 'asset', fileName, source: readFileSync(file) })
    },
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const file = files.get(new URL(request.url ?? '/', 'http://dev').pathname.slice(1))
        if (!file) return next()
        response.setHeader('Content-Type', CONTENT_TYPES[extname(file)] ?? 'application/octet-stream')
        response.end(readFileSync(file))
      })
    },
  }
}

/**
 * The window's start runs its modules in stages, each in a task of its own
 * (src/renderer/src/main.ts: one dynamic import after another; all at once, they made one task of
 * 70–200 ms before the list showed, issue #37). Each stage is one chunk, holding the modules its
 * entry imports that no earlier stage holds, so a stage's chunk runs only its own; left to the
 * bundler, modules shared with the other pages came in ~45 small files. The chunks, what they
 * import and their styles are fetched from the page's head like its static imports (modulepreload:
 * fetched and compiled, not run), rather than one round trip after another as each stage asks.
 */
const START_STAGES = [
  ['start-schemas', 'src/shared/validation/validate.ts'],
  ['start-words', 'src/renderer/src/words/counting.ts'],
  ['start-database', 'src/renderer/src/db/connection.ts'],
  ['start-checks', 'src/renderer/src/start-checks.ts'],
  ['start-app', 'src/renderer/src/app.ts'],
  ['start-list', 'src/renderer/src/features/skus/SkuListPage.vue'],
].map(([name, entry]) => ({ name: name!, entry: resolve(entry!) }))

/** Whether `entry` imports `moduleId` (statically, through any number of modules). */
function imports(entry: string, moduleId: string, context: ChunkingContext): boolean {
  const seen = new Set([entry])
  const pending = [entry]
  while (pending.length) {
    const id = pending.pop()!
    if (id === moduleId) return true
    for (const imported of context.getModuleInfo(id)?.importedIds ?? []) {
      if (seen.has(imported)) continue
      seen.add(imported)
      pending.push(imported)
    }
  }
  return false
}

const START_ENTRY = resolve('src/renderer/src/main.ts')

/**
 * One chunk a start stage, earlier stages first (a higher priority): each takes what its entry
 * imports that no earlier stage took. What main.ts itself imports (Vite's preload helper, the
 * profiles' adapter it asks main with first) goes first, in a chunk of its own: left in a stage's,
 * it made main.ts import that stage's chunk, which then ran before the first stage (Vue and the
 * app's stores did, in the window's first task).
 */
const startStageGroups = [
  {
    name: (moduleId: string, context: ChunkingContext) =>
      moduleId !== START_ENTRY && (/preload-helper/.test(moduleId) || imports(START_ENTRY, moduleId, context))
        ? 'start-entry'
        : null,
    priority: START_STAGES.length + 1,
  },
  ...START_STAGES.map((stage, index) => ({
    name: (moduleId: string, context: ChunkingContext) =>
      imports(stage.entry, moduleId, context) ? stage.name : null,
    priority: START_STAGES.length - index,
  })),
]

/** The start stages' chunks, their imports and styles, as links in the page's head (see above). */
function preloadStartStages(): Plugin {
  return {
    name: 'catalog-desk:preload-start-stages',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html
        const scripts = new Set<string>()
        const styles = new Set<string>()
        const add = (fileName: string) => {
          const chunk = bundle[fileName]
          if (chunk?.type !== 'chunk' || scripts.has(fileName)) return
          scripts.add(fileName)
          for (const css of chunk.viteMetadata?.importedCss ?? []) styles.add(css)
          for (const imported of chunk.imports) add(imported)
        }
        const entries = new Set(START_STAGES.map((stage) => stage.entry))
        for (const chunk of Object.values(bundle)) {
          if (chunk.type === 'chunk' && chunk.facadeModuleId && entries.has(chunk.facadeModuleId))
            add(chunk.fileName)
        }
        const link = (rel: string, fileName: string) => ({
          tag: 'link',
          attrs: { rel, crossorigin: true, href: `./${fileName}` },
          injectTo: 'head' as const,
        })
        const missing = (fileName: string) => !html.includes(`/${fileName}"`)
        return {
          html,
          tags: [
            ...[...scripts].filter(missing).map((fileName) => link('modulepreload', fileName)),
            ...[...styles].filter(missing).map((fileName) => link('stylesheet', fileName)),
          ],
        }
      },
    },
  }
}

/** The start stages whose chunks are compiled whole as they load (see `compileWhole`). */
const COMPILED_WHOLE = new Set(['start-app', 'start-list'])

/**
 * The last stages' chunks (Vue, the shell, the stores; the list's page) are compiled whole as they
 * load, off the page's thread while the earlier stages run, rather than a function at a time as
 * the mount first calls each: that compiling was about half of the mount's task (issue #37,
 * docs/benchmarks.md). V8's explicit compile hint is a comment that only counts as the file's
 * first line, and Vite puts a line of its own at the top of a chunk with dynamic imports in its
 * last step: so the hint is written into the files once they are written.
 */
function compileWhole(): Plugin {
  return {
    name: 'catalog-desk:compile-whole',
    apply: 'build',
    writeBundle({ dir }, bundle) {
      if (!dir) return
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !COMPILED_WHOLE.has(chunk.name)) continue
        const file = join(dir, chunk.fileName)
        writeFileSync(file, `//# allFunctionsCalledOnLoad\n${chunk.code}`)
        if (!chunk.map) continue
        // One line more at the top: the source map's lines move down one (";" starts a line).
        const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { mappings: string }
        writeFileSync(`${file}.map`, JSON.stringify({ ...map, mappings: `;${map.mappings}` }))
      }
    },
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
    plugins: [
      // No component uses the Options API: Vue's support for it is left out of the start's chunks.
      vue({ features: { optionsAPI: false } }),
      devServerCsp(),
      preloadStartStages(),
      compileWhole(),
      fixedNameAssets(),
    ],
    // fflate's asynchronous zip() makes blob: workers, which the CSP refuses: see the module.
    resolve: {
      alias: [{ find: /^fflate$/, replacement: resolve('src/renderer/fflate-without-workers.ts') }],
    },
    // The AR preview's worker loads its decoders on demand (dynamic imports): ES modules split;
    // the default (iife) cannot.
    worker: { format: 'es' },
    build: {
      rollupOptions: {
        input: { index: resolve('src/renderer/index.html') },
        output: { codeSplitting: { groups: startStageGroups } },
      },
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
