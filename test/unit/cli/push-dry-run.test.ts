import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { DryRunJson } from '#cli/push/push-dry-run.ts'
import { lockPathOf } from '#cli/push/journal-lock.ts'
import { REPO_ROOT } from '../shared/contract-fixtures.ts'
import { runCli } from './run-cli.ts'
import { pushHarness } from './push-harness.ts'

/**
 * `push --dry-run` (issue #35): what a push would create, update, leave unchanged and hold back,
 * judged as push judges it against the destination's journal, with nothing sent and nothing
 * written. Against real sandboxes on loopback, in a fresh folder per test.
 */

const TOKEN = 'push-dry-run-token-7a41'
const harness = pushHarness({ token: TOKEN, barcodePrefix: 'D' })
const { sandboxFor, push, skus } = harness

const path = (name: string) => join(harness.dir(), name)

/** Every file and folder under `dir`, with its size and modification time: what a run may not change. */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  const out: string[] = []
  for (const entry of entries) {
    const full = join(entry.parentPath, entry.name)
    const info = await stat(full)
    out.push(`${relative(dir, full)} ${info.isDirectory() ? 'dir' : info.size} ${info.mtimeMs}`)
  }
  return out.sort()
}

describe('catalog-desk push --dry-run', () => {
  it('says what it would create, update and leave unchanged, and why it holds one back; sends and writes nothing', async () => {
    const sandbox = await sandboxFor()
    const sent = skus(3)
    await writeFile(path('skus.json'), JSON.stringify(sent))
    const first = await push(['skus.json', '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN'])
    expect(first.code).toBe(0)

    // D-0 as sent, D-1 with another brand, D-2 left out, D-3 new, and one without a barcode.
    const edited = [
      sent[0],
      { ...sent[1], brand: 'Northwind Optics Pro' },
      ...skus(4).slice(3),
      { ...sent[2], barcode: '' },
    ]
    await writeFile(path('edited.json'), JSON.stringify(edited))
    const requests = sandbox.requests().length
    const journal = harness.journalOf(sandbox.url)
    const journalBytes = await readFile(journal)
    const before = await tree(harness.dir())

    // No token is read: the variable is not even set.
    const env = { CATALOG_DESK_DATA_DIR: harness.dataDir() }
    const text = await push(['edited.json', '--base-url', sandbox.url, '--dry-run'], { env })
    expect(text.code).toBe(1)
    expect(text.stdout).toBe(
      [
        'Dry run: nothing was sent, and the journal was not written.',
        '4 SKUs: 1 to create, 1 to update, 1 unchanged since sent there (not sent), 1 held back.',
        '4 SKUs valid; 3 sendable; 1 held back: no barcode (1)',
        '  no barcode: item 3',
        '',
      ].join('\n'),
    )
    expect(text.stderr).toContain('  [3] Aviator Classic Gold 58: No barcode')

    const json = await push(['edited.json', '--base-url', sandbox.url, '--dry-run', '--json'], { env })
    expect(JSON.parse(json.stdout)).toEqual({
      dryRun: true,
      total: 4,
      valid: 4,
      invalid: 0,
      sendable: 3,
      heldBack: 1,
      create: 1,
      update: 1,
      unchanged: 1,
      marked: 0,
      notUpdated: 0,
      standing: 0,
      holds: [{ index: 3, reason: 'identity', message: 'No barcode' }],
    } satisfies DryRunJson)

    // Nothing reached the sandbox, and nothing changed on disk: the journal byte for byte, no lock.
    expect(sandbox.requests()).toHaveLength(requests)
    expect(await readFile(journal)).toEqual(journalBytes)
    expect(await tree(harness.dir())).toEqual(before)
    expect(before.some((entry) => entry.startsWith(relative(harness.dir(), lockPathOf(journal))))).toBe(false)

    // The push itself then does what the dry run said.
    const real = await push(['edited.json', '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN', '--json'])
    expect(JSON.parse(real.stdout)).toMatchObject({
      created: { synced: 1 },
      updated: { synced: 1 },
      unchanged: 1,
      held: 1,
    })
  })

  it('to a destination never pushed to: creates no journal and no folder, and exits 0 when all would be sent', async () => {
    const sandbox = await sandboxFor()
    await writeFile(path('new.json'), JSON.stringify(skus(2)))
    const before = await tree(harness.dir())
    const run = await push(['new.json', '--base-url', sandbox.url, '--dry-run'], {
      env: { CATALOG_DESK_DATA_DIR: harness.dataDir() },
    })
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(
      '2 SKUs: 2 to create, 0 to update, 0 unchanged since sent there (not sent).\n',
    )
    expect(run.stdout).toContain('2 SKUs valid; 2 sendable; 0 held back\n')
    expect(run.stderr).toContain('(none yet; a dry run creates none)')
    expect(await tree(harness.dir())).toEqual(before)
    expect(sandbox.requests()).toEqual([])
  })

  it('refuses --report and --unresolved, which write files: exit 2', async () => {
    const sandbox = await sandboxFor()
    await writeFile(path('two.json'), JSON.stringify(skus(2)))
    for (const option of ['--report', '--unresolved']) {
      const run = await push(['two.json', '--base-url', sandbox.url, '--dry-run', option, 'out.csv'])
      expect(run.code).toBe(2)
      expect(run.stderr).toContain(`${option} writes a file, and --dry-run writes nothing`)
    }
  })
})

describe('validate and push --dry-run agree on a real WooCommerce export', () => {
  /**
   * WooCommerce's own sample data (test/fixtures/sheets/exports/real/SOURCES.md, GPL-3.0), read by
   * hand. It has 25 data rows. Row 2, "Hoodie", is a `variable` product that rows 20 ("Hoodie -
   * Blue, No") and 25 ("Hoodie - Blue, Yes") name as their Parent (woo-hoodie), so it is a product
   * and not a SKU. Rows 13 and 14 ("simple, downloadable, virtual"), 23 (grouped) and 24 (external)
   * are no physical product: skipped. 20 SKUs. Row 1, the variable "V-Neck T-Shirt", is named by no
   * `variation` row (rows 15 to 17 name it but say `simple`), so it is a SKU of its own, and so are
   * rows 15 to 19. No cell is of the wrong kind: all 20 are valid. The file has no GTIN, EAN or
   * barcode column (its 51 columns are the older header) and its ID and SKU columns are the shop's
   * own codes, not barcodes: not one SKU has a barcode, so every one is held back for it: 0
   * sendable, 20 held back, "no barcode". Its IDs (44 to 90) are all different: no shop id twice.
   */
  const SAMPLE = join(REPO_ROOT, 'test/fixtures/sheets/exports/real/woocommerce-sample-products.csv')
  const SKU_ROWS = [1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 15, 16, 17, 18, 19, 20, 21, 22, 25]

  it('20 valid, 0 sendable, 20 held back for no barcode, the same rows, in both', async () => {
    const validate = await runCli(['validate', SAMPLE])
    expect(validate.code).toBe(1)
    const sandbox = await sandboxFor()
    const dryRun = await push([SAMPLE, '--base-url', sandbox.url, '--dry-run'])
    expect(dryRun.code).toBe(1)
    const verdict = '20 SKUs valid; 0 sendable; 20 held back: no barcode (20)'
    expect(validate.stdout).toContain(
      `${verdict}\n  no barcode: lines 2, 4, 5, 6, 7, 8, 9, 10, 11, 12 and 10 more\n`,
    )
    expect(dryRun.stdout).toContain(
      `${verdict}\n  no barcode: lines 2, 4, 5, 6, 7, 8, 9, 10, 11, 12 and 10 more\n`,
    )
    expect(validate.stdout).not.toContain('shop id')

    const validated = JSON.parse((await runCli(['validate', SAMPLE, '--json'])).stdout) as {
      valid: number
      sendable: number
      holds: { row: number; line: number; reason: string; message: string }[]
      repeatedShopIds: unknown[]
    }
    const judged = JSON.parse(
      (await push([SAMPLE, '--base-url', sandbox.url, '--dry-run', '--json'])).stdout,
    ) as DryRunJson
    expect(validated).toMatchObject({ valid: 20, sendable: 0, repeatedShopIds: [] })
    expect(judged).toMatchObject({ valid: 20, sendable: 0, heldBack: 20, create: 0 })
    // Each by its data row (for scripts) and its line in the spreadsheet (for a person), in both.
    const reasons = SKU_ROWS.map((row) => ({ row, line: row + 1, reason: 'identity', message: 'No barcode' }))
    expect(validated.holds).toEqual(reasons)
    expect(judged.holds.map(({ row, line, reason, message }) => ({ row, line, reason, message }))).toEqual(
      reasons,
    )
    expect(sandbox.requests()).toEqual([])
  })
})

describe('validate and push --dry-run say every reason a row is held back for', () => {
  // A row without a barcode and a category was said to lack the barcode only: filled in, it was
  // then held for the category.
  const SHEET = [
    'Product Name,Barcode,Brand,Category',
    'Rouge A,,Acme,lipstick',
    'Rouge B,,Acme,',
    'Rouge C,4006381333931,Acme,',
  ].join('\n')

  it('each reason with its lines, the count of rows held once, and `more` in the JSON', async () => {
    await writeFile(path('shades.csv'), SHEET)
    const sandbox = await sandboxFor()
    const validate = await runCli(['validate', path('shades.csv')])
    const dryRun = await push(['shades.csv', '--base-url', sandbox.url, '--dry-run'])
    const said = [
      '3 SKUs valid; 0 sendable; 3 held back, some for more than one reason: no barcode (2); category is empty; this check requires it (2)',
      '  no barcode: lines 2, 3',
      '  category is empty; this check requires it: lines 3, 4',
    ].join('\n')
    expect(validate.stdout).toContain(said)
    expect(dryRun.stdout).toContain(said.replaceAll('this check', 'this push'))
    const told = dryRun.stdout + dryRun.stderr
    expect(told).toContain(
      'held back and not sent (required besides a product name and a barcode: Category), some for more than one reason: 2 missing a product name or a barcode; 2 missing a field this push requires.',
    )
    expect(told).toContain('[1] Rouge B: line 3: No barcode; Category is empty; this push requires it')

    const validated = JSON.parse((await runCli(['validate', path('shades.csv'), '--json'])).stdout) as {
      heldBack: number
      holds: unknown[]
    }
    const judged = JSON.parse(
      (await push(['shades.csv', '--base-url', sandbox.url, '--dry-run', '--json'])).stdout,
    ) as DryRunJson
    const category = (by: string) => ({ reason: 'required', message: `Category is empty; ${by} requires it` })
    expect(validated.heldBack).toBe(3)
    expect(validated.holds).toEqual([
      { row: 1, line: 2, reason: 'identity', message: 'No barcode' },
      { row: 2, line: 3, reason: 'identity', message: 'No barcode', more: [category('this check')] },
      { row: 3, line: 4, ...category('this check') },
    ])
    expect(judged.heldBack).toBe(3)
    expect(judged.holds.map(({ index: _, ...hold }) => hold)).toEqual([
      { row: 1, line: 2, reason: 'identity', message: 'No barcode' },
      { row: 2, line: 3, reason: 'identity', message: 'No barcode', more: [category('this push')] },
      { row: 3, line: 4, ...category('this push') },
    ])
    expect(sandbox.requests()).toEqual([])
  })
})
