// @ts-check
/**
 * The layers of the code, named by where it runs, and which may import which (docs/architecture.md).
 * An ESLint rule, so a wrong import fails `npm run lint` instead of waiting for a reviewer:
 * every import (static, dynamic, re-export, `import('…')` types) is resolved to a file, relative
 * or through the package's `#layer/…` aliases, and checked against the table below. Type-only
 * imports count too: a type that crosses a boundary the wrong way is a dependency all the same.
 */
import { readFileSync } from 'node:fs'
import { isBuiltin } from 'node:module'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/**
 * @typedef {object} Layer
 * @property {string} name
 * @property {string} folder relative to the project root
 * @property {string} runs where its code runs, as the messages say it
 * @property {string[]} may the other layers it may import
 * @property {boolean} nodeBuiltins whether it may import Node's modules (`node:fs`, …)
 */

/** @type {Layer[]} Most specific folder first. */
export const LAYERS = [
  {
    name: 'shared',
    folder: 'src/shared',
    runs: 'everywhere (no Node, no DOM)',
    may: [],
    nodeBuiltins: false,
  },
  {
    name: 'node',
    folder: 'src/node',
    runs: 'in plain Node (no Electron)',
    may: ['shared'],
    nodeBuiltins: true,
  },
  {
    name: 'main',
    folder: 'src/main',
    runs: "in Electron's main process",
    may: ['shared', 'node'],
    nodeBuiltins: true,
  },
  {
    name: 'preload',
    folder: 'src/preload',
    runs: 'in the sandboxed preload',
    may: ['shared'],
    nodeBuiltins: false,
  },
  {
    name: 'cli',
    folder: 'src/cli',
    runs: 'in plain Node (the CLI)',
    may: ['shared', 'node'],
    nodeBuiltins: true,
  },
  { name: 'renderer', folder: 'src/renderer', runs: 'in the page', may: ['shared'], nodeBuiltins: false },
]

/**
 * Inside the page, one direction: pages and components (`features/`) → state and actions
 * (`stores/`) → data (`db/`) and the page's ways out (`adapters/`: main over `window.api`, the
 * clock, the network, locks) → `shared`; beside them, used by pages, `ui/` (shared presentational
 * components), `composables/` (components' reusable behaviour) and `words/` (what the page says).
 * Each part lists what it may not import. A part with `typesFrom` may still import types only
 * (`import type`, `import { type X }`) from those: a component's props may name a record, but it
 * reads and writes it through `instead`.
 * @type {{ folder: string, holds: string, mayNot: string[], typesFrom?: string[], instead?: string }[]}
 */
export const RENDERER_PARTS = [
  // A thread of its own, not the page: it writes the drafts it reads from a file through its own
  // connection (db/import-connection.ts), so storing them never blocks the window.
  {
    folder: 'src/renderer/src/features/import/import.worker.ts',
    holds: "the import's worker",
    mayNot: ['stores', 'ui', 'adapters'],
  },
  {
    folder: 'src/renderer/src/features',
    holds: 'pages and components',
    mayNot: ['db'],
    typesFrom: ['db'],
    instead: 'an action or getter of a store (src/renderer/src/stores)',
  },
  {
    folder: 'src/renderer/src/stores',
    holds: 'state and actions',
    mayNot: ['features', 'ui', 'composables'],
  },
  // Components any page may show: they are given what they show (props) and say what happened
  // (events). Their words, a composable and a way out (the clipboard) are theirs to use; the
  // page's state is not, but a prop may name its type.
  {
    folder: 'src/renderer/src/ui',
    holds: 'shared presentational components',
    mayNot: ['features', 'stores', 'db'],
    typesFrom: ['stores', 'db'],
    instead: 'a prop or an event, so the page that shows it passes the state in',
  },
  // What the page says, made from what it is given: a type may be the data's or a store's, a
  // value never is.
  {
    folder: 'src/renderer/src/words',
    holds: "the page's words",
    mayNot: ['features', 'stores', 'db', 'adapters', 'ui', 'composables'],
    typesFrom: ['stores', 'db'],
    instead: 'an argument, so the caller passes the value in',
  },
  // Behaviour a component reuses (keys, dialogs, listeners): no page's state in it.
  {
    folder: 'src/renderer/src/composables',
    holds: "components' reusable behaviour",
    mayNot: ['features', 'stores', 'db', 'ui'],
  },
  // The one module of db/ that writes words: an exported sheet's sync-state column, in the words
  // the list shows. To move beside the export's page (issue #40), after which db/ holds no words.
  {
    folder: 'src/renderer/src/db/export-drafts.ts',
    holds: 'the export of drafts to a sheet',
    mayNot: ['features', 'stores', 'ui', 'adapters', 'composables'],
  },
  // Keys and records, never words: what a person reads is made from them where it is shown.
  {
    folder: 'src/renderer/src/db',
    holds: 'the data',
    mayNot: ['features', 'stores', 'ui', 'adapters', 'composables', 'words'],
  },
  {
    folder: 'src/renderer/src/adapters',
    holds: "the page's ways out",
    mayNot: ['features', 'stores', 'ui', 'words', 'composables'],
  },
]
const RENDERER_SRC = 'src/renderer/src'
/** The one part that reaches main through `window.api`. */
const ADAPTERS = `${RENDERER_SRC}/adapters`

/** @param {string} file absolute */
function projectPath(file) {
  return relative(ROOT, file).split(sep).join('/')
}

/** @type {(path: string, folder: string) => boolean} Whether a project-relative path is in a folder. */
const within = (path, folder) => path === folder || path.startsWith(`${folder}/`)

/** The package's `imports` (`#shared/*` → `./src/shared/*`), the one way to name another layer. */
const ALIASES = Object.entries(
  /** @type {Record<string, string>} */ (
    JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).imports ?? {}
  ),
).map(([alias, target]) => ({
  prefix: alias.replace(/\*$/, ''),
  folder: target.replace(/^\.\//, '').replace(/\*$/, ''),
}))

/** @param {string} file absolute */
function layerOf(file) {
  const path = projectPath(file)
  return LAYERS.find((layer) => within(path, layer.folder))
}

/** @param {Layer} layer */
function aliasOf(layer) {
  return ALIASES.find((alias) => `${alias.folder}/`.startsWith(`${layer.folder}/`))?.prefix
}

/**
 * Where an import specifier leads: a file, Node's own module, or a package (not a layer).
 * @param {string} specifier
 * @param {string} importer absolute
 * @returns {{ file: string } | { builtin: true } | undefined}
 */
function target(specifier, importer) {
  if (specifier.startsWith('.')) return { file: resolve(dirname(importer), specifier) }
  const alias = ALIASES.find((entry) => specifier.startsWith(entry.prefix))
  if (alias) return { file: join(ROOT, alias.folder, specifier.slice(alias.prefix.length)) }
  if (isBuiltin(specifier)) return { builtin: true }
  return undefined
}

/**
 * Whether an import brings in types only, so nothing of the module is loaded at runtime:
 * `import type`, `export type … from`, `import('…').T` in a type, or named imports that are all
 * `type` (a bare `import '…'` loads the module).
 * @param {any} node
 */
function typesOnly(node) {
  if (node.type === 'TSImportType') return true
  if (node.importKind === 'type' || node.exportKind === 'type') return true
  const specifiers = node.specifiers ?? []
  return (
    (node.type === 'ImportDeclaration' || node.type === 'ExportNamedDeclaration') &&
    specifiers.length > 0 &&
    specifiers.every(
      /** @param {any} specifier */ (specifier) =>
        specifier.importKind === 'type' || specifier.exportKind === 'type',
    )
  )
}

/** @type {import('eslint').Rule.RuleModule} */
export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports follow the layers: each layer imports only those it may, by their alias.' },
    schema: [],
    messages: {
      forbidden: '{{from}} runs {{runs}}: it may not import {{to}} ({{specifier}}). Allowed: {{allowed}}.',
      builtin: '{{from}} runs {{runs}}: it may not import Node modules ({{specifier}}).',
      useAlias: 'Import {{to}} by its alias ({{alias}}…), not by a relative path leaving {{from}}.',
      againstDirection: '{{from}} holds {{holds}}: it may not import {{to}} ({{specifier}}).',
      onlyTypes:
        '{{from}} holds {{holds}}: it may import only types from {{to}} (`import type`), not values ({{specifier}}); use {{instead}}.',
      mainOnlyThroughAdapters:
        'Only src/renderer/src/adapters reaches main (window.api): call a function of an adapter instead.',
    },
  },
  create(context) {
    const importer = context.filename
    const from = layerOf(importer)
    if (!from) return {}
    // Facts of the importing file, the same for each of its imports.
    const importerPath = projectPath(importer)
    const part = RENDERER_PARTS.find((entry) => within(importerPath, entry.folder))
    const inAdapters = within(importerPath, ADAPTERS)

    /** @type {(node: import('estree').Node, source: unknown) => void} */
    const check = (node, source) => {
      if (typeof source !== 'string') return
      const found = target(source, importer)
      if (!found) return
      if ('builtin' in found) {
        if (!from.nodeBuiltins) {
          context.report({
            node,
            messageId: 'builtin',
            data: { from: from.folder, runs: from.runs, specifier: source },
          })
        }
        return
      }
      const to = layerOf(found.file)
      if (part && to === from) checkRendererParts(part, node, source, found.file)
      if (!to || to === from) return
      if (!from.may.includes(to.name)) {
        const allowed = from.may.length ? from.may.map((name) => `src/${name}`).join(', ') : 'packages only'
        context.report({
          node,
          messageId: 'forbidden',
          data: { from: from.folder, runs: from.runs, to: to.folder, specifier: source, allowed },
        })
      } else if (source.startsWith('.')) {
        context.report({
          node,
          messageId: 'useAlias',
          data: { to: to.folder, alias: aliasOf(to), from: from.folder },
        })
      }
    }

    /**
     * @param {(typeof RENDERER_PARTS)[number]} part the importer's
     * @param {import('estree').Node} node @param {string} source @param {string} file
     */
    function checkRendererParts(part, node, source, file) {
      const target = projectPath(file)
      const forbidden = part.mayNot.find((name) => within(target, `${RENDERER_SRC}/${name}`))
      if (!forbidden) return
      const data = {
        from: part.folder,
        holds: part.holds,
        to: `${RENDERER_SRC}/${forbidden}`,
        specifier: source,
      }
      if (!part.typesFrom?.includes(forbidden)) {
        context.report({ node, messageId: 'againstDirection', data })
      } else if (!typesOnly(node)) {
        context.report({
          node,
          messageId: 'onlyTypes',
          data: { ...data, instead: part.instead ?? 'another part' },
        })
      }
    }

    /** @param {any} node */
    const fromSource = (node) => check(node, node.source?.value)
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression: (node) => check(node, node.source.type === 'Literal' ? node.source.value : undefined),
      /** @param {any} node `window.api`, `globalThis.api`, `self.api`, outside the adapters. */
      MemberExpression(node) {
        if (from.name !== 'renderer' || inAdapters) return
        const name = node.property.type === 'Identifier' ? node.property.name : node.property.value
        if (
          name === 'api' &&
          node.object.type === 'Identifier' &&
          ['window', 'globalThis', 'self'].includes(node.object.name)
        ) {
          context.report({ node, messageId: 'mainOnlyThroughAdapters' })
        }
      },
      // `import('…').Type` in a type position.
      /** @param {any} node */
      TSImportType: (node) => check(node, node.source?.value ?? node.argument?.literal?.value),
    }
  },
}

export default { rules: { layers: layersRule } }
