import { describe, expect, it } from 'vitest'
import { lintMessages } from './lint-messages.ts'

/** The layer rules' messages (and the Electron rule's) for `code` linted as the file at `filePath`. */
const layerMessages = (code: string, filePath: string) =>
  lintMessages(code, filePath, new Set(['catalog-desk/layers', 'no-restricted-imports']))

describe('the layer rule', () => {
  it.each([
    // shared runs everywhere: no other layer, no Node module.
    [
      'src/shared/x.ts',
      `import { createServiceClient } from '#node/service/client.ts'`,
      /src\/shared runs everywhere.*may not import src\/node/,
    ],
    [
      'src/shared/x.ts',
      `import type { Handlers } from '#main/handlers/types.ts'`,
      /may not import src\/main/,
    ],
    ['src/shared/x.ts', `import { useSync } from '#renderer/stores/sync.ts'`, /may not import src\/renderer/],
    [
      'src/shared/sync/x.ts',
      `import { readFile } from 'node:fs/promises'`,
      /may not import Node modules \(node:fs\/promises\)/,
    ],
    ['src/shared/x.ts', `import { join } from 'path'`, /may not import Node modules \(path\)/],
    ['src/shared/x.ts', `export * from '#node/keyed-queue.ts'`, /may not import src\/node/],
    [
      'src/shared/x.ts',
      `export type T = import('#node/keyed-queue.ts').KeyedQueue`,
      /may not import src\/node/,
    ],
    ['src/shared/x.ts', `import { x } from '../node/keyed-queue.ts'`, /may not import src\/node/],
    // node is plain Node: no Electron wiring, no page.
    [
      'src/node/service/x.ts',
      `import { createHandlers } from '#main/handlers/index.ts'`,
      /src\/node runs in plain Node.*may not import src\/main/,
    ],
    ['src/node/x.ts', `import { db } from '#renderer/db/database.ts'`, /may not import src\/renderer/],
    ['src/node/x.ts', `import { main } from '#cli/main.ts'`, /may not import src\/cli/],
    ['src/node/x.ts', `import { app } from 'electron'`, /run without Electron/],
    // the CLI never imports main.
    [
      'src/cli/commands/x.ts',
      `import { startEmbeddedSandbox } from '#main/embedded-sandbox.ts'`,
      /src\/cli runs in plain Node \(the CLI\).*may not import src\/main/,
    ],
    ['src/cli/x.ts', `const m = await import('#main/index.ts')\nvoid m`, /may not import src\/main/],
    ['src/cli/x.ts', `import { db } from '#renderer/db/database.ts'`, /may not import src\/renderer/],
    // the page reaches main only through window.api.
    [
      'src/renderer/src/stores/x.ts',
      `import { createServiceClient } from '#node/service/client.ts'`,
      /src\/renderer runs in the page.*may not import src\/node/,
    ],
    [
      'src/renderer/src/x.ts',
      `import type { Handlers } from '#main/handlers/types.ts'`,
      /may not import src\/main/,
    ],
    ['src/renderer/src/x.ts', `import { join } from 'node:path'`, /may not import Node modules/],
    [
      'src/preload/x.ts',
      `import { tokenAddress } from '#node/profiles/profile-rules.ts'`,
      /may not import src\/node/,
    ],
    // Inside the page: pages → state → data and adapters, never back.
    [
      'src/renderer/src/stores/x.ts',
      `import { NOTHING } from '#renderer/features/skus/list/x.ts'`,
      /src\/renderer\/src\/stores holds state and actions: it may not import src\/renderer\/src\/features/,
    ],
    [
      'src/renderer/src/stores/x.ts',
      `import type { Props } from '../features/sync/SyncStart.vue'`,
      /may not import src\/renderer\/src\/features/,
    ],
    [
      'src/renderer/src/db/x.ts',
      `import { useSyncStore } from '#renderer/stores/sync.ts'`,
      /src\/renderer\/src\/db holds the data: it may not import src\/renderer\/src\/stores/,
    ],
    [
      'src/renderer/src/db/x.ts',
      `import { copyText } from '../adapters/clipboard.ts'`,
      /may not import src\/renderer\/src\/adapters/,
    ],
    [
      'src/renderer/src/adapters/x.ts',
      `import SnackBar from '#renderer/ui/SnackBar.vue'`,
      /holds the page's ways out: it may not import src\/renderer\/src\/ui/,
    ],
    // Pages and components read and write the data through stores: from db/ they import types only.
    [
      'src/renderer/src/features/skus/x.ts',
      `import { skuDrafts } from '#renderer/db/index.ts'`,
      /src\/renderer\/src\/features holds pages and components: it may import only types from src\/renderer\/src\/db \(`import type`\), not values \(#renderer\/db\/index.ts\); use an action or getter of a store \(src\/renderer\/src\/stores\)/,
    ],
    [
      'src/renderer/src/features/sync/X.vue',
      `<script setup lang="ts">\nimport { syncRuns } from '../../db/index.ts'\nvoid syncRuns\n</script>`,
      /features holds pages and components: it may import only types from src\/renderer\/src\/db/,
    ],
    [
      'src/renderer/src/features/skus/x.ts',
      `import { type SkuDraftRecord, newDraftRecord } from '#renderer/db/sku-drafts.ts'`,
      /may import only types from src\/renderer\/src\/db/,
    ],
    ['src/renderer/src/features/x.ts', `import '#renderer/db/index.ts'`, /may import only types from/],
    [
      'src/renderer/src/features/x.ts',
      `export { skuList } from '#renderer/db/index.ts'`,
      /may import only types from src\/renderer\/src\/db/,
    ],
    [
      'src/renderer/src/features/x.ts',
      `const m = await import('#renderer/db/index.ts')\nvoid m`,
      /may import only types from src\/renderer\/src\/db/,
    ],
    // Only the adapters reach main.
    [
      'src/renderer/src/stores/x.ts',
      `export const list = () => window.api.listProfiles()`,
      /Only src\/renderer\/src\/adapters reaches main/,
    ],
    [
      'src/renderer/src/features/skus/x.ts',
      `void globalThis.api.openExternal('https://example.com')`,
      /Only src\/renderer\/src\/adapters reaches main/,
    ],
    [
      'src/renderer/src/ui/x.ts',
      `void window['api'].writeClipboard('x')`,
      /Only src\/renderer\/src\/adapters reaches main/,
    ],
    // main may import node and shared, but by alias: one way to name another layer.
    [
      'src/main/x.ts',
      `import { startSandbox } from '../node/sandbox/server.ts'`,
      /Import src\/node by its alias \(#node\/…\)/,
    ],
  ])('refuses in %s: %s', async (filePath, code, message) => {
    const messages = await layerMessages(`${code}\n`, filePath)
    expect(messages.join('\n')).toMatch(message)
  })

  it.each([
    [
      'src/node/x.ts',
      `import { isRecord } from '#shared/is-record.ts'\nimport { readFile } from 'node:fs/promises'`,
    ],
    [
      'src/main/x.ts',
      `import { startSandbox } from '#node/sandbox/server.ts'\nimport type { Handlers } from './handlers/types.ts'`,
    ],
    [
      'src/cli/x.ts',
      `import { createServiceClient } from '#node/service/client.ts'\nimport { CHANNELS } from '#shared/ipc.ts'`,
    ],
    [
      'src/renderer/src/stores/x.ts',
      `import { CHANNELS } from '#shared/ipc.ts'\nimport { db } from '#renderer/db/database.ts'`,
    ],
    [
      'src/preload/x.ts',
      `import { buildApi } from '#shared/ipc.ts'\nimport { contextBridge } from 'electron'`,
    ],
    ['src/shared/sync/x.ts', `import { isRecord } from '../is-record.ts'\nimport { z } from 'zod'`],
    [
      'src/renderer/src/adapters/x.ts',
      `import { db } from '../db/index.ts'\nexport const copy = (t: string) => window.api.writeClipboard(t)`,
    ],
    [
      'src/renderer/src/features/sync/x.ts',
      `import { useSyncStore } from '#renderer/stores/sync.ts'\nimport { copyText } from '#renderer/adapters/clipboard.ts'`,
    ],
    [
      'src/renderer/src/stores/x.ts',
      `import { db } from '../db/index.ts'\nimport { profilesInMain } from '../adapters/profiles.ts'`,
    ],
    [
      'src/renderer/src/features/skus/x.ts',
      `import type { SkuDraftRecord } from '#renderer/db/records.ts'\nimport { type ListQuery, type SortKey } from '#renderer/db/sku-list-query.ts'`,
    ],
    [
      'src/renderer/src/features/x.ts',
      `export type { ListView } from '#renderer/db/sku-list-pages.ts'\nexport type R = import('#renderer/db/records.ts').SkuDraftRecord`,
    ],
    [
      'src/renderer/src/features/apps/X.vue',
      `<script setup lang="ts">\nimport type { AppDraftRecord } from '../../db/records.ts'\ndefineProps<{ record: AppDraftRecord }>()\n</script>`,
    ],
    // Tests and tools import whatever they exercise.
    [
      'test/unit/x.test.ts',
      `import { createHandlers } from '#main/handlers/index.ts'\nimport { db } from '#renderer/db/database.ts'`,
    ],
  ])('allows in %s: %s', async (filePath, code) => {
    expect(await layerMessages(`${code}\n`, filePath)).toEqual([])
  })
})
