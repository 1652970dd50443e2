import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { main } from '#cli/main.ts'
import type { SheetSummary } from '#cli/sheet-report.ts'
import type { ValidationSummary } from '#cli/validation-report.ts'
import { openJournal } from '#cli/push/journal-outbox.ts'
import { createProfileStore } from '#node/profiles/profile-store.ts'
import { createTokenStore } from '#node/secrets/token-store.ts'
import { DEFAULT_SENDING } from '#shared/profile.ts'
import { createFakeKeychain } from '../secrets/fake-keychain.ts'
import { fixture } from '../shared/contract-fixtures.ts'
import { runCli } from './run-cli.ts'

/**
 * The one verdict of `validate` and `convert` (issue #35): valid, sendable and held back with the
 * app's gates, the repeats of a file named with their rows, and validate's exit status 0 only
 * when every SKU would be sent.
 */

let scratch = ''
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'catalog-desk-verdict-'))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

const at = (name: string) => join(scratch, name)
const lines = (text: string) => text.trimEnd().split('\n')

/** A complete SKU of the contract's example (with a Category) under another barcode and name. */
function sku(barcode: string, productName = `Aviator ${barcode}`): Record<string, unknown> {
  const [first] = (fixture('bulk-upload-request.json') as { skus: Record<string, unknown>[] }).skus
  return { ...structuredClone(first!), barcode, productName }
}

async function jsonFile(name: string, skus: unknown[]): Promise<string> {
  await writeFile(at(name), JSON.stringify(skus))
  return at(name)
}

/** A sheet whose columns the importer reads by their titles; `rows` are its data rows. */
async function csvFile(name: string, header: string, rows: string[]): Promise<string> {
  await writeFile(at(name), [header, ...rows].join('\n') + '\n')
  return at(name)
}

const PLAIN = 'Product name,Barcode,Category'

describe('validate: the verdict and its exit status', () => {
  it('a file that is valid but held back exits 1, saying why and where; all sendable exits 0', async () => {
    const held = await csvFile('no-barcode.csv', PLAIN, ['Aviator,,eyewear', 'Round,,eyewear'])
    const heldRun = await runCli(['validate', held])
    expect(heldRun.code).toBe(1)
    expect(lines(heldRun.stdout).slice(-3)).toEqual([
      '2 SKUs checked: 2 valid, 0 invalid, 8 warnings',
      '2 SKUs valid; 0 sendable; 2 held back: no barcode (2)',
      '  no barcode: lines 2, 3',
    ])

    const sendable = await csvFile('sendable.csv', PLAIN, ['Aviator,4006381333931,eyewear'])
    const sendableRun = await runCli(['validate', sendable, '--require', 'category'])
    expect(sendableRun.code).toBe(0)
    expect(lines(sendableRun.stdout).at(-1)).toBe('1 SKU valid; 1 sendable; 0 held back')
  })

  it('holds a SKU without the required fields: the default Category, --require, a --profile’s', async () => {
    const file = await csvFile('no-category.csv', 'Product name,Barcode,Brand', ['Aviator,4006381333931,'])
    const byDefault = await runCli(['validate', file])
    expect(byDefault.code).toBe(1)
    expect(byDefault.stdout).toContain(
      '1 SKU valid; 0 sendable; 1 held back: category is empty; this check requires it (1)\n',
    )
    const none = await runCli(['validate', file, '--require', 'none'])
    expect(none.code).toBe(0)
    const brand = await runCli(['validate', file, '--require', 'brand'])
    expect(brand.stdout).toContain('held back: brand is empty; this check requires it (1)')

    const bad = await runCli(['validate', file, '--require', 'colour'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('"colour" is not a field validate can require')
    expect(bad.stderr).toContain('Run "catalog-desk validate --help" for usage.')
  })

  it('names rows read as the same SKU, says how many distinct SKUs the file holds, and sends each once', async () => {
    const rows = ['Aviator,4006381333931,eyewear', 'Round,4006381333948,eyewear']
    // Rows 1 and 2, then the same two again twice: 6 rows, 2 distinct SKUs.
    const file = await csvFile('repeated.csv', PLAIN, [...rows, ...rows, ...rows])
    const run = await runCli(['validate', file])
    expect(run.code).toBe(1)
    const out = lines(run.stdout)
    expect(out).toContain(
      '6 SKUs valid; 2 sendable; 4 held back: repeating another row exactly (sent once, with it) (4)',
    )
    expect(out).toContain(
      "the file's 6 SKU rows hold 2 distinct SKUs; read as the same SKU (in the columns read):",
    )
    expect(out).toContain('  lines 4, 6 as line 2')
    expect(out).toContain('  lines 5, 7 as line 3')
    // Said once, as repeats: not again as barcodes that different SKUs share.
    expect(out.some((line) => line.startsWith('barcodes on more than one SKU'))).toBe(false)

    const json = JSON.parse((await runCli(['validate', file, '--json'])).stdout) as SheetSummary
    expect(json).toMatchObject({ valid: 6, sendable: 2, heldBack: 4, distinct: 2 })
    expect(json.repeated).toEqual([
      { rows: [1, 3, 5], lines: [2, 4, 6] },
      { rows: [2, 4, 6], lines: [3, 5, 7] },
    ])
  })

  it('a barcode shared with an invalid SKU holds nothing back: the valid one is sent', async () => {
    const file = await jsonFile('shared-invalid.json', [
      sku('111'),
      { ...sku('111', 'Round'), isActive: 'yes' },
    ])
    const out = lines((await runCli(['validate', file])).stdout)
    expect(out).toContain('1 SKU valid; 1 sendable; 0 held back')
    expect(out).toContain(
      'barcodes on more than one SKU (of those it would send, a push sends none: keep one):',
    )
    expect(out).toContain('  barcode 111 is on items 0, 1 (they differ only in Active, Product name)')
  })

  it('names a barcode two different SKUs share, with their rows, and holds both', async () => {
    const file = await jsonFile('shared.json', [sku('111'), sku('222'), sku('111', 'Round')])
    const run = await runCli(['validate', file])
    expect(run.code).toBe(1)
    const out = lines(run.stdout)
    expect(out).toContain(
      '3 SKUs valid; 1 sendable; 2 held back: sharing a barcode with another SKU to be sent (2)',
    )
    // A JSON list's items are counted from 0, as its problems' [N] are.
    expect(out).toContain('  sharing a barcode with another SKU to be sent: items 0, 2')
    expect(out).toContain(
      'barcodes on more than one SKU (of those it would send, a push sends none: keep one):',
    )
    // Which fields they differ in, as push says of each it holds (a tryout asked validate for it).
    expect(out).toContain('  barcode 111 is on items 0, 2 (they differ only in Product name)')

    const json = JSON.parse((await runCli(['validate', file, '--json'])).stdout) as ValidationSummary
    expect(json.sharedBarcodes).toEqual([{ barcode: '111', indexes: [0, 2], differIn: 'Product name' }])
    expect(json.holds).toEqual([
      {
        index: 0,
        reason: 'duplicate',
        message: 'Barcode 111 is also on 1 other SKU to be sent (item 2): keep one',
      },
      {
        index: 2,
        reason: 'duplicate',
        message: 'Barcode 111 is also on 1 other SKU to be sent (item 0): keep one',
      },
    ])
    expect(json.repeated).toEqual([])
  })

  it('names a shop id two rows carry (WooCommerce’s ID), and holds nothing for it alone', async () => {
    const header = 'ID,Type,SKU,"GTIN, UPC, EAN, or ISBN",Name,Categories,Parent'
    const file = await csvFile('woo-ids.csv', header, [
      '42,simple,AV-1,4006381333931,Aviator,Eyewear,',
      '43,simple,RD-1,4006381333948,Round,Eyewear,',
      '42,simple,AV-2,4006381333955,Aviator Gold,Eyewear,',
    ])
    const run = await runCli(['validate', file])
    expect(run.code).toBe(0)
    const out = lines(run.stdout)
    expect(out).toContain('3 SKUs valid; 3 sendable; 0 held back')
    expect(out).toContain(
      'shop ids (column "ID") on more than one row (one product listed twice? nothing is held for it):',
    )
    expect(out).toContain('  shop id 42 is on lines 2, 4')
    const json = JSON.parse((await runCli(['validate', file, '--json'])).stdout) as SheetSummary
    expect(json.repeatedShopIds).toEqual([{ shopId: '42', rows: [1, 3], lines: [2, 4] }])
  })

  it('a Shopify product’s variants share its Handle but are not one shop id twice; the same variant twice is', async () => {
    const header = 'Handle,Title,Option1 Name,Option1 Value,Variant Barcode,Type'
    const file = await csvFile('shopify.csv', header, [
      'aviator,Aviator,Color,Gold,4006381333931,Eyewear',
      'aviator,,,Black,4006381333948,',
      'aviator,,,Gold,4006381333955,',
    ])
    const json = JSON.parse((await runCli(['validate', file, '--json'])).stdout) as SheetSummary
    expect(json.items).toBe(3)
    expect(json.repeatedShopIds).toEqual([{ shopId: 'aviator / Gold', rows: [1, 3], lines: [2, 4] }])
  })

  it('lists the first rows of a group, and every row with --all', async () => {
    const rows = Array.from({ length: 14 }, (_, i) => `Aviator ${i},,eyewear`)
    const file = await csvFile('many.csv', PLAIN, rows)
    const grouped = lines((await runCli(['validate', file])).stdout)
    expect(grouped).toContain(
      'column "Barcode": Barcode is missing (warning): lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 4 more',
    )
    expect(grouped.at(-1)).toBe('  no barcode: lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 4 more')

    const all = lines((await runCli(['validate', file, '--all'])).stdout)
    expect(
      all.filter((line) => /^line \d+, column "Barcode": Barcode is missing \(warning\)$/.test(line)),
    ).toHaveLength(14)
    expect(all.at(-1)).toBe('  no barcode: lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15')
  })
})

describe('validate --profile and --journal: the destination’s records', () => {
  const dirs: string[] = []
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
  })

  /** An app data folder with one profile (requiring Brand) and, for its address, a journal in which push left barcode 111's creation unknown. */
  async function appData(): Promise<{ dataDir: string; journal: string }> {
    const dataDir = await mkdtemp(join(tmpdir(), 'catalog-desk-verdict-data-'))
    dirs.push(dataDir)
    const tokens = createTokenStore({ service: 'catalog-desk-test', keychain: createFakeKeychain().backend })
    await createProfileStore({ dir: dataDir, tokens }).save({
      ...DEFAULT_SENDING,
      id: 'acme',
      name: 'Acme',
      kind: 'service',
      baseUrl: 'https://api.example.com',
      tokenEncoding: 'raw',
      requiredFields: ['category', 'brand'],
    })
    const journalPath = join(dataDir, 'push-journals', 'api.example.com.skus.jsonl')
    await mkdir(join(dataDir, 'push-journals'))
    const journal = await openJournal({ path: journalPath, baseUrl: 'https://api.example.com', kind: 'skus' })
    const outbox = journal.outbox({
      action: 'create',
      items: [{ key: '111', index: 0, label: '111' }],
      send: () => sku('111'),
      stands: () => ({ payload: sku('111'), fingerprint: 'f' }),
    })
    const request = { id: 'r1', runId: 'run', kind: 'skus' as const, keys: ['111'], bytes: 1, startedAt: 1 }
    await outbox.beginRequest(request)
    await outbox.endRequest(request, [{ key: '111', state: 'unknown', message: 'no answer' }])
    await journal.close()
    return { dataDir, journal: journalPath }
  }

  it('--profile takes its required fields and, as a push there would, leaves a barcode its journal may have created as it stands; nothing is written', async () => {
    const { dataDir, journal } = await appData()
    const file = await jsonFile('destination.json', [sku('111'), sku('222'), { ...sku('333'), brand: '' }])
    const before = await readdir(join(dataDir, 'push-journals'))
    const run = { code: -1, stdout: '', stderr: '' }
    run.code = await main(['validate', file, '--profile', 'Acme'], {
      stdout: { write: (text: string) => (run.stdout += text) },
      stderr: { write: (text: string) => (run.stderr += text) },
      cwd: scratch,
      env: { CATALOG_DESK_DATA_DIR: dataDir },
    })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(1)
    expect(run.stdout).toContain(
      '3 SKUs valid; 1 sendable; 2 held back: left as an earlier push left it (unknown, failed or refused) (1); brand is empty; Acme requires it (1)',
    )
    // The journal is read without its lock, and nothing is added beside it.
    expect(await readdir(join(dataDir, 'push-journals'))).toEqual(before)

    // Without --profile or --journal the destination is not known, and only Category is required.
    const plain = await runCli(['validate', file], scratch)
    expect(plain.stdout).toContain('3 SKUs valid; 3 sendable; 0 held back')

    const byJournal = await runCli(['validate', file, '--journal', journal, '--require', 'category'], scratch)
    expect(byJournal.stdout).toContain(
      '3 SKUs valid; 2 sendable; 1 held back: left as an earlier push left it (unknown, failed or refused) (1)',
    )
    const json = JSON.parse(
      (await runCli(['validate', file, '--journal', journal, '--json'], scratch)).stdout,
    ) as ValidationSummary
    expect(json.holds).toEqual([
      {
        index: 0,
        reason: 'standing',
        message: 'A creation an earlier push sent is unknown: no answer; it is left as it is',
      },
    ])
  })
})

describe('validate --profile: the profile’s check-digit choice', () => {
  it('holds a SKU whose EAN-13 check digit is wrong only for a profile that says so', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'catalog-desk-verdict-digits-'))
    try {
      const tokens = createTokenStore({
        service: 'catalog-desk-test',
        keychain: createFakeKeychain().backend,
      })
      const store = createProfileStore({ dir: dataDir, tokens })
      const profile = {
        ...DEFAULT_SENDING,
        kind: 'service' as const,
        baseUrl: 'https://api.example.com',
        tokenEncoding: 'raw' as const,
        requiredFields: ['category' as const],
      }
      await store.save({ ...profile, id: 'strict', name: 'Strict', holdBadCheckDigits: true })
      await store.save({ ...profile, id: 'lenient', name: 'Lenient', baseUrl: 'https://api.example.org' })
      // 4006381333931 is a right EAN-13; 4006381333932 the same with a wrong check digit.
      const file = await jsonFile('digits.json', [sku('4006381333931'), sku('4006381333932')])
      const run = async (name: string) => {
        const out = { code: -1, stdout: '' }
        out.code = await main(['validate', file, '--profile', name], {
          stdout: { write: (text: string) => (out.stdout += text) },
          stderr: { write: () => undefined },
          cwd: scratch,
          env: { CATALOG_DESK_DATA_DIR: dataDir },
        })
        return out
      }
      const strict = await run('Strict')
      expect(strict.code).toBe(1)
      expect(strict.stdout).toMatch(/2 SKUs valid; 1 sendable; 1 held back: .*check digit/)
      const lenient = await run('Lenient')
      expect(lenient.code).toBe(0)
      expect(lenient.stdout).toContain('2 SKUs valid; 2 sendable; 0 held back')
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})

describe('convert: the same counts', () => {
  it('says what validate says of the SKUs it writes, still writes every valid one, and exits as validate does', async () => {
    const file = await jsonFile('to-convert.json', [
      sku('111'),
      sku('222'),
      sku('111', 'Round'),
      { ...sku('333'), barcode: '' },
    ])
    const validate = await runCli(['validate', file])
    const convert = await runCli(['convert', file, at('converted.json')])
    const verdictOf = (stdout: string) => lines(stdout).filter((line) => / valid; \d+ sendable; /.test(line))
    expect(verdictOf(convert.stdout)).toEqual(verdictOf(validate.stdout))
    expect(verdictOf(convert.stdout)).toEqual([
      '4 SKUs valid; 1 sendable; 3 held back: sharing a barcode with another SKU to be sent (2); no barcode (1)',
    ])
    // A script posting the request it wrote stops here: it holds a barcode twice.
    expect(lines(convert.stdout).at(-1)).toBe(
      `wrote ${at('converted.json')}: 4 SKUs, 3 of them held back (above): posted as it is, the request sends them anyway`,
    )
    expect(convert.code).toBe(1)
    expect(validate.code).toBe(1)
    // A sheet is converted whole too, its shared barcodes to be settled in it.
    const sheet = await runCli(['convert', file, at('converted.csv')])
    expect(lines(sheet.stdout).at(-1)).toBe(
      `wrote ${at('converted.csv')}: 4 SKUs, 3 of them held back (above)`,
    )
    expect(sheet.code).toBe(1)
  })
})
