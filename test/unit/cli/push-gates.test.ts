import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createProfileStore } from '#node/profiles/profile-store.ts'
import { createTokenStore } from '#node/secrets/token-store.ts'
import { DEFAULT_SENDING } from '#shared/profile.ts'
import { newSkuPayload } from '#shared/schema/sku-template.ts'
import { REQUIRABLE_FIELDS } from '#shared/sync/send-gates.ts'
import { createFakeKeychain } from '../secrets/fake-keychain.ts'
import { fixture } from '../shared/contract-fixtures.ts'
import { barcodesIn, pushHarness } from './push-harness.ts'
import { runCli } from './run-cli.ts'

/**
 * `push` holds back what the app's pre-flight holds back (issue #15): an empty SKU, one without a
 * product name or barcode, one missing a required field, and barcodes that would be sent twice or
 * that the journal already sent to that address. Against a real sandbox on loopback.
 */

const TOKEN = 'push-gates-token-41f0'
const harness = pushHarness({ token: TOKEN, barcodePrefix: 'G' })
const { sandboxFor, push, skus } = harness

async function inputFile(name: string, content: unknown): Promise<string> {
  await writeFile(join(harness.dir(), name), typeof content === 'string' ? content : JSON.stringify(content))
  return name
}

const readReport = async (name: string) =>
  JSON.parse(await readFile(join(harness.dir(), name), 'utf8')) as {
    index: number
    barcode: string
    state: string
    message?: string
  }[]

function without(sku: Record<string, unknown>, field: string): Record<string, unknown> {
  const copy = { ...sku }
  delete copy[field]
  return copy
}

describe('push: the gates', () => {
  it('sends none of the questionable SKUs, names each with its reason, exit 1; the sandbox holds exactly the sound ones', async () => {
    const sandbox = await sandboxFor()
    const [first, second, third] = skus(3)
    const [nameless, codeless, dupA, dupB] = skus(4, 'Q')
    const file = await inputFile('questionable.json', [
      first,
      newSkuPayload(),
      without(nameless!, 'productName'),
      without(codeless!, 'barcode'),
      { ...dupA, barcode: 'SHARED-1', productName: 'Twin A' },
      second,
      { ...dupB, barcode: 'SHARED-1', productName: 'Twin B' },
      third,
    ])
    const run = await push([
      file,
      '--base-url',
      sandbox.url,
      '--token-env',
      'PUSH_TOKEN',
      '--json',
      '--report',
      'report.json',
    ])
    expect(run.code).toBe(1)
    expect(JSON.parse(run.stdout)).toMatchObject({
      total: 8,
      synced: 3,
      held: 5,
      invalid: 0,
      rejected: 0,
      failed: 0,
      unknown: 0,
      status: 'finished',
    })
    expect(run.stderr).toContain(
      '5 of 8 SKUs are held back and not sent (required besides a product name and a barcode: Category): 1 empty (nothing filled in); 2 missing a product name or a barcode; 2 sharing a barcode with another SKU to be sent.',
    )
    expect(run.stderr).toContain(
      '  [1] #1: Empty: nothing is filled in beyond what a new draft starts with\n',
    )
    expect(run.stderr).toContain('  [2] Q-0: No product name\n')
    expect(run.stderr).toContain('  [3] Aviator Classic Gold 58: No barcode\n')
    expect(run.stderr).toContain(
      // Told what differs: which of the two is right is for a person to say.
      '  [4] SHARED-1: Barcode SHARED-1 is also on 1 other SKU to be sent (item 6 “Twin B”): keep one (they differ only in Product name)\n',
    )
    expect(run.stderr).toContain(
      '  [6] SHARED-1: Barcode SHARED-1 is also on 1 other SKU to be sent (item 4 “Twin A”): keep one (they differ only in Product name)\n',
    )
    expect(barcodesIn(sandbox)).toEqual(['G-0', 'G-1', 'G-2'])

    const report = await readReport('report.json')
    expect(report.map((entry) => entry.state)).toEqual([
      'synced',
      'held',
      'held',
      'held',
      'held',
      'synced',
      'held',
      'synced',
    ])
    expect(report[2]).toEqual({
      index: 2,
      barcode: 'Q-0',
      state: 'held',
      action: 'none',
      message: 'No product name',
    })
    // A SKU without a barcode has none in the report, never its product name in its place.
    expect(report[3]).toMatchObject({ index: 3, barcode: '', state: 'held', message: 'No barcode' })
    expect(report[6]!.message).toMatch(/^Barcode SHARED-1 is also on 1 other SKU to be sent \(item 4/)

    // The text summary counts them too.
    const text = await push([file, '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN'])
    expect(text.code).toBe(1)
    expect(text.stdout).toMatch(
      /^8 SKUs: 3 synced, 0 rejected, 0 failed, 0 unknown, 5 held back \(not sent\)\./,
    )
    expect(text.stdout).toContain('  held: [3] Aviator Classic Gold 58: No barcode')
    expect(barcodesIn(sandbox)).toEqual(['G-0', 'G-1', 'G-2'])
  })

  it('a sheet: each held row named by its row, the required fields by their titles', async () => {
    const sandbox = await sandboxFor()
    const file = await inputFile(
      'sheet.csv',
      'barcode,productName,category,brand\nS-1,One,eyewear,Acme\nS-2,Two,,Acme\nS-3,Three,eyewear,\n',
    )
    const base = [file, '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN']
    const run = await push([...base, '--require', 'category,brand', '--json'])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('required besides a product name and a barcode: Category, Brand')
    expect(run.stderr).toContain('  [1] S-2: line 3: Category is empty; this push requires it\n')
    expect(run.stderr).toContain('  [2] S-3: line 4: Brand is empty; this push requires it\n')
    expect(barcodesIn(sandbox)).toEqual(['S-1'])
  })

  it('a sheet that repeats a row exactly: validate and push say it once, the SKU is created once, the repeat named', async () => {
    const sandbox = await sandboxFor()
    const row = 'R-1,Nishman Foam Wax,haircare'
    const file = await inputFile(
      'repeats.csv',
      `barcode,productName,category\n${row}\nR-2,Other,haircare\n${row}\nR-3,Twin A,haircare\nR-3,Twin B,haircare\n`,
    )
    const validate = await runCli(['validate', file], harness.dir())
    expect(validate.stdout).toContain(
      '5 SKUs valid; 2 sendable; 3 held back: sharing a barcode with another SKU to be sent (2); repeating another row exactly (sent once, with it) (1)',
    )
    const base = [file, '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN']
    const run = await push(base)
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(
      '  [2] R-1: line 4: The same SKU as line 2 “Nishman Foam Wax”, which is sent: not sent twice\n',
    )
    expect(barcodesIn(sandbox)).toEqual(['R-1', 'R-2'])
    // Again: the SKU stands there unchanged, its repeat is still only its repeat.
    const again = await push(base)
    expect(again.stdout).toMatch(
      /^5 SKUs: 2 synced, 0 rejected, 0 failed, 0 unknown, 3 held back \(not sent\)\./,
    )
    expect(sandbox.received().skus).toHaveLength(2)
  })

  it('a European shop sheet with --mapping and --decimal-comma: the mapping’s barcode column, fixed values and decimals reach the sandbox', async () => {
    const sandbox = await sandboxFor()
    const file = await inputFile(
      'shop.csv',
      'Artikel;Article number;EAN;Intensity\nAviator;A-1;4006381333931;1,5\nRound;A-2;;0,8\n',
    )
    const mapping = await inputFile(
      'shop.mapping.json',
      JSON.stringify({
        format: 'catalog-desk-mapping/1',
        columns: { Artikel: 'productName', 'Article number': 'barcode', EAN: null },
        constants: { category: 'eyewear' },
      }),
    )
    const base = [file, '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN']
    const refused = await push([...base, '--journal', 'refused.jsonl'])
    // Without the mapping there is no name or barcode to send; without the decimal comma, no intensity.
    expect(refused.code).toBe(1)
    expect(barcodesIn(sandbox)).toEqual([])
    const run = await push([...base, '--mapping', mapping, '--decimal-comma'])
    expect(run.code).toBe(0)
    expect(barcodesIn(sandbox)).toEqual(['A-1', 'A-2'])
    const stored = sandbox.received().skus.map((entry) => entry.sku as Record<string, unknown>)
    expect(
      stored.map((sku) => [
        sku.productName,
        sku.category,
        (sku.arEffect as { envSettings: { intensity: number } }).envSettings.intensity,
      ]),
    ).toEqual([
      ['Aviator', 'eyewear', 1.5],
      ['Round', 'eyewear', 0.8],
    ])
  })
})

describe('push: --require and the profile’s required fields', () => {
  it('--require overrides the default; none lets a SKU without a category through; a re-run judges only what was never sent', async () => {
    const sandbox = await sandboxFor()
    const [plain, branded] = skus(2)
    const file = await inputFile('req.json', [
      without(plain!, 'category'),
      without({ ...branded!, brand: 'Acme' }, 'subCategory'),
    ])
    const base = [file, '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN', '--json']

    // The default (category): the first is held.
    const first = await push(base)
    expect(first.code).toBe(1)
    expect(JSON.parse(first.stdout)).toMatchObject({ synced: 1, held: 1 })
    expect(first.stderr).toContain('[0] G-0: Category is empty; this push requires it')
    expect(barcodesIn(sandbox)).toEqual(['G-1'])

    // Another requirement: the held one has a sub-category and goes now; the synced one has none,
    // but what the journal sent is not judged again.
    const other = await push([...base, '--require', 'subCategory'])
    expect(other.code).toBe(0)
    expect(JSON.parse(other.stdout)).toMatchObject({ synced: 2, held: 0 })
    expect(barcodesIn(sandbox)).toEqual(['G-1', 'G-0'])

    // Nothing left to send.
    const again = await push([...base, '--require', 'none'])
    expect(again.code).toBe(0)
    expect(JSON.parse(again.stdout)).toMatchObject({ synced: 2, held: 0 })
    expect(barcodesIn(sandbox)).toEqual(['G-1', 'G-0'])
  })

  it('--hold-bad-check-digits holds back a barcode whose check digit is wrong, in validate and push alike; without it, a warning', async () => {
    const sandbox = await sandboxFor()
    // 4006381333932: an EAN-13 whose check digit should be 1.
    const file = await inputFile(
      'digits.csv',
      'barcode,productName,category\n4006381333931,Right,eyewear\n4006381333932,Wrong,eyewear\n',
    )
    const warned = await runCli(['validate', file], harness.dir())
    expect(warned.stdout).toContain('2 SKUs valid; 2 sendable; 0 held back')
    const held = await runCli(['validate', file, '--hold-bad-check-digits'], harness.dir())
    expect(held.code).toBe(1)
    expect(held.stdout).toContain(
      '2 SKUs valid; 1 sendable; 1 held back: whose barcode’s check digit is wrong (1)',
    )
    const base = [file, '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN']
    const run = await push([...base, '--hold-bad-check-digits'])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('  [1] 4006381333932: line 3: ')
    expect(barcodesIn(sandbox)).toEqual(['4006381333931'])
  })

  it('--require none holds only what has no name or barcode', async () => {
    const sandbox = await sandboxFor()
    const [a, b] = skus(2)
    const file = await inputFile('none.json', [without(a!, 'category'), without(b!, 'barcode')])
    const run = await push([
      file,
      '--base-url',
      sandbox.url,
      '--token-env',
      'PUSH_TOKEN',
      '--require',
      'none',
      '--json',
    ])
    expect(JSON.parse(run.stdout)).toMatchObject({ synced: 1, held: 1 })
    expect(run.stderr).toContain('(only a product name and a barcode are required)')
    expect(barcodesIn(sandbox)).toEqual(['G-0'])
  })

  it.each([
    [
      'colour',
      /--require: "colour" is not a field push can require\. The fields are category, subCategory, brand/,
    ],
    ['none,category', /--require: "none" stands alone/],
    ['', /--require needs field names/],
  ])('--require %j is refused with the fields it knows; exit 2, nothing sent', async (value, message) => {
    const sandbox = await sandboxFor()
    const file = await inputFile('f.json', skus(1))
    const run = await push([file, '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN', '--require', value])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(message)
    expect(run.stderr).toContain(REQUIRABLE_FIELDS.join(', '))
    expect(sandbox.requests()).toHaveLength(0)
  })

  it('--profile: the profile’s requiredFields are the gate, and --require still overrides them', async () => {
    const sandbox = await sandboxFor()
    const data = join(harness.dir(), 'data')
    await mkdir(data)
    const tokens = createTokenStore({
      service: 'catalog-desk-gates-test',
      keychain: createFakeKeychain().backend,
    })
    await createProfileStore({ dir: data, tokens }).save({
      ...DEFAULT_SENDING,
      id: 'shop',
      name: 'Shop',
      kind: 'service',
      baseUrl: sandbox.url,
      requiredFields: ['brand'],
    })
    await tokens.set('shop', sandbox.url, TOKEN)
    const [noBrand, branded] = skus(2)
    const file = await inputFile('profile.json', [
      without(noBrand!, 'brand'),
      without({ ...branded!, brand: 'Acme' }, 'category'),
    ])
    const env = { CATALOG_DESK_DATA_DIR: data }

    // The profile requires a brand, not a category: the first is held, the second goes.
    const run = await push([file, '--profile', 'shop', '--json'], { env, tokens })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('required besides a product name and a barcode: Brand)')
    expect(run.stderr).toContain('[0] G-0: Brand is empty; this push requires it')
    expect(barcodesIn(sandbox)).toEqual(['G-1'])

    const loosened = await push([file, '--profile', 'shop', '--require', 'none', '--json'], { env, tokens })
    expect(loosened.code).toBe(0)
    expect(barcodesIn(sandbox)).toEqual(['G-1', 'G-0'])
  })
})

describe('push: barcodes the journal sent to that address', () => {
  it('a second item with the barcode of a SKU created there is held on a re-run, the row named; the first is that SKU, unchanged', async () => {
    const sandbox = await sandboxFor()
    const [sent, twin] = skus(2)
    // The twin lacks a category, so the first run holds it for that and sends the other.
    const file = await inputFile('twins.json', [sent, without({ ...twin!, barcode: 'G-0' }, 'category')])
    const base = [file, '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN', '--report', 'r.json']
    const first = await push(base)
    expect(first.code).toBe(1)
    expect(barcodesIn(sandbox)).toEqual(['G-0'])

    // Without the category gate it would be an update of G-0 now: the file holds two G-0s, and
    // the first is the one the journal sent (its payload stands there), so the other is held.
    const rerun = await push([...base, '--require', 'none'])
    expect(rerun.code).toBe(1)
    const message =
      'Barcode G-0 is also on 1 other SKU to be sent (item 0 “Aviator Classic Gold 58”): keep one (they differ only in Category)'
    expect(rerun.stderr).toContain(`[1] G-0: ${message}`)
    expect(rerun.stderr).toContain('1 sharing a barcode with another SKU to be sent')
    expect(await readReport('r.json')).toEqual([
      { index: 0, barcode: 'G-0', state: 'synced', action: 'none' },
      { index: 1, barcode: 'G-0', state: 'held', action: 'none', message },
    ])
    expect(barcodesIn(sandbox)).toEqual(['G-0'])
  })

  it('a barcode the journal may have created (unknown) holds its twin, saying so', async () => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'reset', stage: 'after' }] })
    const [sent, twin] = skus(2)
    const file = await inputFile('maybe.json', [sent, without({ ...twin!, barcode: 'G-0' }, 'category')])
    const base = [file, '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN', '--json']
    expect(JSON.parse((await push(base)).stdout)).toMatchObject({ unknown: 1, held: 1 })
    const rerun = await push([...base, '--require', 'none'])
    expect(JSON.parse(rerun.stdout)).toMatchObject({ unknown: 1, held: 1 })
    expect(rerun.stderr).toContain(
      '[1] G-0: Barcode G-0 is also on 1 other SKU to be sent (item 0 “Aviator Classic Gold 58”): keep one',
    )
    expect(barcodesIn(sandbox)).toEqual(['G-0'])
  })

  it('an app creation request passes no gate and refuses the SKU options', async () => {
    const sandbox = await sandboxFor()
    const file = await inputFile('app.json', fixture('app-create-request.json'))
    for (const option of [
      ['--require', 'brand'],
      ['--unresolved', 'u.csv'],
      ['--platform-has', 'has.txt'],
    ]) {
      const run = await push([file, '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN', ...option])
      expect(run.code).toBe(2)
      expect(run.stderr).toContain(
        `${option[0]} is for SKUs (their barcodes); app.json holds an app creation request.`,
      )
    }
    expect(sandbox.requests()).toHaveLength(0)
  })
})
