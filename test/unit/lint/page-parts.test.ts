import { describe, expect, it } from 'vitest'
import { lintMessages } from './lint-messages.ts'

// ui/, words/ and composables/ in the layer rule's table (lint/layers.js): modules planted in each
// folder, linted with the project's own config as `npm run lint` lints them.
const layerMessages = (code: string, filePath: string) =>
  lintMessages(`${code}\n`, filePath, new Set(['catalog-desk/layers']))

// ESLint with the project's config takes seconds to load on a busy machine, the first lint pays it.
describe('the layer rule inside the page: ui/, words/ and composables/', { timeout: 30_000 }, () => {
  it.each([
    // ui/ is given what it shows: a store imported into a shared component fails.
    [
      'src/renderer/src/ui/Planted.vue',
      `<script setup lang="ts">\nimport { useNoticeStore } from '#renderer/stores/notice.ts'\nconst notices = useNoticeStore()\n</script>\n<template><p>{{ notices }}</p></template>`,
      /src\/renderer\/src\/ui holds shared presentational components: it may import only types from src\/renderer\/src\/stores .*use a prop or an event/,
    ],
    [
      'src/renderer/src/ui/planted.ts',
      `import { useSyncStore } from '../stores/sync.ts'\nvoid useSyncStore`,
      /ui holds shared presentational components: it may import only types from src\/renderer\/src\/stores/,
    ],
    [
      'src/renderer/src/ui/planted.ts',
      `import { db } from '#renderer/db/database.ts'\nvoid db`,
      /only types from src\/renderer\/src\/db/,
    ],
    [
      'src/renderer/src/ui/planted.ts',
      `import SkuGrid from '#renderer/features/skus/list/SkuGrid.vue'\nvoid SkuGrid`,
      /ui holds shared presentational components: it may not import src\/renderer\/src\/features/,
    ],
    // words/ is text made from what it is given.
    [
      'src/renderer/src/words/planted.ts',
      `import { useSkuDraftsStore } from '#renderer/stores/sku-drafts.ts'\nvoid useSkuDraftsStore`,
      /words holds the page's words: it may import only types from src\/renderer\/src\/stores .*use an argument/,
    ],
    [
      'src/renderer/src/words/planted.ts',
      `import { db } from '../db/database.ts'\nvoid db`,
      /only types from src\/renderer\/src\/db/,
    ],
    [
      'src/renderer/src/words/planted.ts',
      `import { copyText } from '#renderer/adapters/clipboard.ts'\nvoid copyText`,
      /words holds the page's words: it may not import src\/renderer\/src\/adapters/,
    ],
    [
      'src/renderer/src/words/planted.ts',
      `import { useQuestion } from '#renderer/composables/use-question.ts'\nvoid useQuestion`,
      /may not import src\/renderer\/src\/composables/,
    ],
    // composables/ hold behaviour, not the page's state.
    [
      'src/renderer/src/composables/planted.ts',
      `import { useSyncStore } from '#renderer/stores/sync.ts'\nvoid useSyncStore`,
      /composables holds components' reusable behaviour: it may not import src\/renderer\/src\/stores/,
    ],
    [
      'src/renderer/src/composables/planted.ts',
      `import type { SkuDraftRecord } from '#renderer/db/records.ts'\nexport type R = SkuDraftRecord`,
      /may not import src\/renderer\/src\/db/,
    ],
    // And nothing below them reaches back up.
    [
      'src/renderer/src/stores/planted.ts',
      `import SnackBar from '#renderer/ui/SnackBar.vue'\nvoid SnackBar`,
      /stores holds state and actions: it may not import src\/renderer\/src\/ui/,
    ],
    [
      'src/renderer/src/db/planted.ts',
      `import { useEventListener } from '#renderer/composables/use-event-listener.ts'\nvoid useEventListener`,
      /db holds the data: it may not import src\/renderer\/src\/composables/,
    ],
    // db/ keeps keys, not words: what a person reads is made where it is shown.
    [
      'src/renderer/src/db/planted.ts',
      `import { count } from '#renderer/words/counting.ts'\nvoid count`,
      /db holds the data: it may not import src\/renderer\/src\/words/,
    ],
    [
      'src/renderer/src/adapters/planted.ts',
      `import { count } from '#renderer/words/counting.ts'\nvoid count`,
      /adapters holds the page's ways out: it may not import src\/renderer\/src\/words/,
    ],
  ])('refuses in %s: %s', async (filePath, code, message) => {
    expect((await layerMessages(code, filePath)).join('\n')).toMatch(message)
  })

  it.each([
    // What ui/ imports today: its words, a composable, a way out, a store's type for a prop.
    [
      'src/renderer/src/ui/Planted.vue',
      `<script setup lang="ts">\nimport type { Notice } from '../stores/notice.ts'\nimport { useModalDialog } from '#renderer/composables/use-modal-dialog.ts'\nimport { count } from '../words/counting.ts'\nimport { copyText } from '../adapters/clipboard.ts'\ndefineProps<{ notice: Notice }>()\nvoid [useModalDialog, count, copyText]\n</script>\n<template><p /></template>`,
    ],
    [
      'src/renderer/src/words/planted.ts',
      `import type { AssetFailures } from '#renderer/db/asset-check-standing.ts'\nimport type { AssetCheckTally } from '#renderer/stores/asset-check-run.ts'\nimport { count } from './counting.ts'\nimport { messageOf } from '#shared/error-message.ts'\nexport type T = [AssetFailures, AssetCheckTally]\nvoid [count, messageOf]`,
    ],
    [
      'src/renderer/src/composables/planted.ts',
      `import { ref } from 'vue'\nimport { holdDraft } from '../adapters/draft-lock.ts'\nimport { messageOf } from '#shared/error-message.ts'\nvoid [ref, holdDraft, messageOf]`,
    ],
    [
      'src/renderer/src/features/skus/planted.ts',
      `import SnackBar from '#renderer/ui/SnackBar.vue'\nimport { count } from '#renderer/words/counting.ts'\nimport { useQuestion } from '#renderer/composables/use-question.ts'\nvoid [SnackBar, count, useQuestion]`,
    ],
  ])('allows in %s: %s', async (filePath, code) => {
    expect(await layerMessages(code, filePath)).toEqual([])
  })
})
