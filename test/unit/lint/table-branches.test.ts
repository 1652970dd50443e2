import { describe, expect, it } from 'vitest'
import { TABLES } from '../../../lint/table-branches.js'
import { SERVICE_OPERATIONS } from '#shared/service/operations.ts'
import { DESTINATION_KINDS } from '#shared/sync/destination.ts'
import { DRAFT_KINDS } from '#shared/sync/kinds.ts'
import { lintMessages } from './lint-messages.ts'

/** The rule's messages for `code` linted as the file at `filePath`. */
const branches = (code: string, filePath: string) =>
  lintMessages(code, filePath, new Set(['catalog-desk/table-branches']))

describe('the table-branches rule', () => {
  it('knows every name the tables hold, so a new kind, destination or operation is covered', () => {
    const names = (what: string) => TABLES.find((table) => table.what === what)?.names
    expect(names('kind of draft')).toEqual(Object.keys(DRAFT_KINDS))
    expect(names('kind of destination')).toEqual(Object.keys(DESTINATION_KINDS))
    expect(names('operation')).toEqual(Object.keys(SERVICE_OPERATIONS))
  })

  it.each([
    [
      'src/renderer/src/stores/x.ts',
      `export const f = (kind: string) => kind === 'skus'`,
      /kind of draft "skus"/,
    ],
    [
      'src/cli/x.ts',
      `export const f = (run: { kind: string }) => run.kind !== 'apps'`,
      /kind of draft "apps"/,
    ],
    [
      'src/cli/x.ts',
      `export const f = (input: { kind: { kind: string } }) => 'skus' === input.kind.kind`,
      /kind of draft "skus"/,
    ],
    [
      'src/shared/x.ts',
      `export function f(kind: string) { switch (kind) { case 'apps': return 1 } return 0 }`,
      /kind of draft "apps"/,
    ],
    [
      'src/main/x.ts',
      `export const f = (p: { kind: string }) => p?.kind === 'embedded-sandbox'`,
      /kind of destination "embedded-sandbox"/,
    ],
    [
      'src/node/x.ts',
      `export const f = (p: { kind: string }) => p.kind === 'service'`,
      /kind of destination "service"/,
    ],
    [
      'src/renderer/src/x.ts',
      `export const f = (d: string) => d === 'embedded-sandbox'`,
      /kind of destination "embedded-sandbox"/,
    ],
    [
      'src/node/x.ts',
      `export const f = (operation: string) => operation === 'bulk-upload'`,
      /operation "bulk-upload"/,
    ],
  ])('fails a branch planted in %s', async (filePath, code, message) => {
    expect(await branches(code, filePath)).toEqual([expect.stringMatching(message)])
  })

  it('fails a branch in a Vue template as in its script', async () => {
    const code = `<script setup lang="ts">
const props = defineProps<{ kind: string }>()
const apps = props.kind === 'apps'
</script>
<template><p v-if="kind === 'skus'">{{ apps }}</p></template>`
    const found = await branches(code, 'src/renderer/src/features/sync/X.vue')
    expect(found).toEqual([
      expect.stringMatching(/kind of draft "apps"/),
      expect.stringMatching(/kind of draft "skus"/),
    ])
  })

  it('leaves alone what is not a branch on a table: other names, other values, the tables themselves', async () => {
    expect(await branches(`export const f = (key: string) => key === 'skus'`, 'src/shared/x.ts')).toEqual([])
    expect(await branches(`export const f = (kind: string) => kind === 'model'`, 'src/shared/x.ts')).toEqual(
      [],
    )
    expect(
      await branches(`export const f = (kind: string) => kind === 'skus'`, 'src/shared/sync/kinds.ts'),
    ).toEqual([])
  })
})
