import { isBuiltin } from 'node:module'
import { defineConfig, type Plugin } from 'vite'
import manifest from './package.json' with { type: 'json' }

/**
 * The CLI as the npm package runs it (`npm run build:cli`; `npm pack` runs it first). Node strips
 * types from no file under node_modules, so an installed CLI must be JavaScript: src/cli/main.ts
 * and everything it imports from src/ (the `#shared/…`, `#node/…` and `#cli/…` aliases included)
 * become out/cli/catalog-desk.js, with what is imported on demand as chunks beside it. npm packages
 * stay imports, installed with the package: each must be one of package.json's `dependencies`,
 * or the build fails (a package only in devDependencies would be missing from an installed CLI).
 * bin/catalog-desk.js checks the Node version, then imports the bundle.
 */

/** The package an import names: `zod`, `@napi-rs/keyring`, `read-excel-file` for `read-excel-file/universal`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier)
}

function onlyDependenciesExternal(): Plugin {
  const dependencies = new Set(Object.keys(manifest.dependencies))
  return {
    name: 'catalog-desk:cli-dependencies',
    generateBundle(_options, bundle) {
      const missing = new Set<string>()
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue
        for (const specifier of [...chunk.imports, ...chunk.dynamicImports]) {
          if (specifier in bundle || isBuiltin(specifier)) continue
          if (!dependencies.has(packageOf(specifier)))
            missing.add(`${packageOf(specifier)} (${chunk.fileName})`)
        }
      }
      if (missing.size > 0) {
        this.error(
          `The CLI imports packages that are not in package.json's dependencies, so an installed CLI would not find them: ${[...missing].join(', ')}`,
        )
      }
    },
  }
}

export default defineConfig({
  // No public/ folder, no .env files: nothing of the app's is copied or read.
  publicDir: false,
  envDir: false,
  plugins: [onlyDependenciesExternal()],
  // `catalog-desk --version` without reading package.json at run time (src/cli/main.ts).
  define: { __CATALOG_DESK_VERSION__: JSON.stringify(manifest.version) },
  build: {
    // A server-side build: Node's modules and the npm packages are left as imports.
    ssr: 'src/cli/main.ts',
    outDir: 'out/cli',
    emptyOutDir: true,
    target: 'node22.12',
    // Readable: an unexpected error's stack (bin/run-cli.js prints it) names real functions.
    minify: false,
    sourcemap: false,
    rolldownOptions: {
      output: {
        format: 'es',
        entryFileNames: 'catalog-desk.js',
        chunkFileNames: 'chunks/[name]-[hash].js',
      },
    },
  },
})
