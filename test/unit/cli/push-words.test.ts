import { describe, expect, it } from 'vitest'
import { SKU_KIND } from '#shared/sync/kinds.ts'
import { progressPrinter } from '#cli/push/push-progress.ts'
import { pushText, type PushJson, type ReportEntry } from '#cli/push/push-report.ts'
import { listOnStderr } from '#cli/push/push-stderr.ts'
import { dryRunText, type DryRunJson } from '#cli/push/push-dry-run.ts'
import type { PushInput } from '#cli/push/push-input.ts'

/**
 * Counts in push's words are written as validate's are ("2,791 SKUs"): a tryout's push of a Dutch
 * shop's sheet said "2,791 SKUs: … 2791 held back" and "… and 2741 more" on the same screen.
 */

const actions = { synced: 0, rejected: 0, failed: 0, unknown: 0 }
const json = (over: Partial<PushJson>): PushJson => ({
  total: 0,
  synced: 0,
  rejected: 0,
  failed: 0,
  unknown: 0,
  invalid: 0,
  held: 0,
  created: actions,
  updated: { ...actions, notFound: 0 },
  unchanged: 0,
  marked: 0,
  notUpdated: 0,
  status: 'finished',
  ...over,
})
const input = { kind: SKU_KIND, labelOf: (index: number) => `SKU ${index}` } as unknown as PushInput

describe('push’s counts, with their thousands separated', () => {
  it('the summary and the “… and N more” of the items not synced', () => {
    const held: ReportEntry[] = Array.from({ length: 2791 }, (_, index) => ({
      index,
      barcode: '',
      state: 'held',
      action: 'none',
      message: 'no barcode',
    }))
    const text = pushText(input, json({ total: 2791, held: 2791, synced: 1200, unchanged: 1200 }), held, [])
    expect(text).toContain(
      '2,791 SKUs: 1,200 synced, 0 rejected, 0 failed, 0 unknown, 2,791 held back (not sent).',
    )
    expect(text).toContain('unchanged since sent there 1,200 (not sent again)')
    expect(text).toMatch(/… and 2,7\d\d more held \(--report lists them all\)/)
  })

  // A tryout's second push --dry-run of a Lightspeed export: "1089 unchanged" beside "1,217 SKUs".
  it('the dry run’s counts', () => {
    const dry: DryRunJson = {
      dryRun: true,
      total: 1217,
      valid: 1217,
      invalid: 0,
      sendable: 1089,
      heldBack: 128,
      create: 0,
      update: 0,
      unchanged: 1089,
      marked: 0,
      notUpdated: 0,
      standing: 0,
      holds: [],
    }
    const text = dryRunText({ ...input, rowOf: () => undefined, file: {} } as unknown as PushInput, dry, [])
    expect(text).toContain(
      '1,217 SKUs: 0 to create, 0 to update, 1,089 unchanged since sent there (not sent), 128 held back.',
    )
  })

  it('the lists on standard error and the progress', () => {
    let written = ''
    const out = { write: (text: string) => (written += text) }
    listOnStderr(
      out,
      'Held back:',
      Array.from({ length: 1100 }, (_, index) => `line ${index}`),
    )
    expect(written).toContain('  … and 1,050 more (--report lists them all)\n')
    written = ''
    const progress = progressPrinter(out, SKU_KIND, () => 0)
    progress.counts({ queued: 0, sending: 0, synced: 1500, rejected: 0, failed: 0, unknown: 1200 })
    expect(written).toBe(
      'Progress: 2,700 of 2,700 SKUs done (1,500 synced, 0 rejected, 0 failed, 1,200 unknown)\n',
    )
  })
})
