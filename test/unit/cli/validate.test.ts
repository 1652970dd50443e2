import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ValidationSummary } from '#cli/validation-report.ts'
import { fixture, fixtureNames } from '../shared/contract-fixtures.ts'
import { runCli } from './run-cli.ts'

let scratch = ''
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'catalog-desk-validate-'))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

async function scratchFile(name: string, text: string): Promise<string> {
  const file = join(scratch, name)
  await writeFile(file, text)
  return file
}

const lines = (text: string) => text.trimEnd().split('\n')

describe('catalog-desk validate', () => {
  it.each(fixtureNames().filter((name) => !name.includes('response')))(
    'a valid file (%s) exits 0 with its counts only: every SKU would be sent',
    async (name) => {
      const run = await runCli(['validate', `test/fixtures/${name}`])
      expect(run).toMatchObject({ code: 0, stderr: '' })
      expect(run.stdout).toMatch(
        /^\d+ (SKU|SKUs|app) checked: \d+ valid, 0 invalid, 0 warnings\n(\d+ SKUs? valid; \d+ sendable; 0 held back\n)?$/,
      )
      // The verdict is a SKU's: an app creation request has none.
      expect(lines(run.stdout)).toHaveLength(name.startsWith('app-') ? 1 : 2)
    },
  )

  it.each([
    ['the service’s answer to an app request', () => 'test/fixtures/app-create-response.json'],
    ['a JSON file of something else', () => scratchFile('other.json', '{"name": "x", "dependencies": {}}')],
  ])('%s is not a SKU: exit 1, saying so', async (_, file) => {
    const run = await runCli(['validate', await file()])
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('None of the contract’s SKU fields is here')
    expect(run.stdout).toContain('1 SKU checked: 0 valid, 1 invalid')
  })

  it('a JSON file that is not UTF-8 is refused, naming the file; one in UTF-16 with its mark is read', async () => {
    const latin1 = join(scratch, 'latin1.json')
    await writeFile(latin1, Buffer.from('{"productName":"Caf\xe9 Noir","barcode":"1"}', 'latin1'))
    const refused = await runCli(['validate', latin1])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(
      `Cannot read ${latin1}: The file is not UTF-8 text. Re-encode it as UTF-8 (most editors offer it under "Save with encoding").`,
    )

    const utf16 = join(scratch, 'utf16.json')
    await writeFile(utf16, Buffer.from('\uFEFF{"productName":"Café Noir","barcode":"1"}', 'utf16le'))
    const read = await runCli(['validate', utf16, '--require', 'none'])
    expect(read.code).toBe(0)
    expect(read.stdout).toMatch(
      /1 SKU checked: 1 valid, 0 invalid, \d+ warnings\n1 SKU valid; 1 sendable; 0 held back\n$/,
    )
  })

  it('a document nested thousands of levels deep is refused plainly, not with a stack overflow', async () => {
    const deep = `{"productName":"Aviator","extra":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`
    const file = await scratchFile('deep.json', deep)
    for (const command of [
      ['validate', file],
      ['convert', file, join(scratch, 'deep.csv')],
    ]) {
      const run = await runCli(command)
      expect(run.code).toBe(2)
      expect(run.stderr).toBe(
        `catalog-desk: Cannot use ${file}: it nests objects or lists more than 100 levels deep\n`,
      )
    }
  })

  it('sheet rows whose columns are all unrecognised are not SKUs', async () => {
    const run = await runCli(['validate', await scratchFile('other.csv', 'foo,bar\n1,2\n3,4\n')])
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('2 SKUs checked: 0 valid, 2 invalid')
  })

  it('a group of wrong check digits quotes its first cell with the digits it checked', async () => {
    const sheet = [
      'productName,barcode,category',
      'Aviator,4006381333932,eyewear',
      'Round,4006381333933,eyewear',
      'Oval,4006381333934,eyewear',
    ].join('\n')
    const run = await runCli(['validate', await scratchFile('digits.csv', `${sheet}\n`)])
    expect(run.stdout).toContain(
      'column "barcode": The check digit of this EAN-13 should be …, not … (warning): lines 2, 3, 4 (line 2: “4006381333932”, should be 1, not 2)',
    )
  })

  it('names what it read: SKUs or the app', async () => {
    expect((await runCli(['validate', 'test/fixtures/bulk-upload-request.json'])).stdout).toBe(
      '2 SKUs checked: 2 valid, 0 invalid, 0 warnings\n2 SKUs valid; 2 sendable; 0 held back\n',
    )
    expect((await runCli(['validate', 'test/fixtures/sku-eyewear-full.json'])).stdout).toBe(
      '1 SKU checked: 1 valid, 0 invalid, 0 warnings\n1 SKU valid; 1 sendable; 0 held back\n',
    )
    expect((await runCli(['validate', 'test/fixtures/app-create-request.json'])).stdout).toBe(
      '1 app checked: 1 valid, 0 invalid, 0 warnings\n',
    )
  })

  it('an invalid list exits 1, printing "[index] path: message" per problem, warnings marked, then the summary', async () => {
    const run = await runCli(['validate', 'test/fixtures/invalid/sku-list-mixed.json'])
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('')
    expect(lines(run.stdout)).toEqual([
      '[1] arEffect.envSettings.intensity: Intensity must be a number, not the text "high"',
      '[1] arEffect.effectAssets3D.1.url: Model address of 3D asset 2 must be a web address starting with http:// or https://, not the text "models/kids-round-blue-lens.glb"',
      '[1] brand: Brand is missing (warning)',
      '[1] barcode: Barcode is missing (warning)',
      '[1] arEffect.transform.rotation: Rotation is missing (warning)',
      '2 SKUs checked: 1 valid, 1 invalid, 3 warnings',
      '1 SKU valid; 1 sendable; 0 held back',
    ])
  })

  it('warnings alone leave the exit status 0 when nothing holds the SKU back', async () => {
    const { brand: _brand, ...noBrand } = fixture('sku-eyewear-full.json')
    const file = await scratchFile('no-brand.json', JSON.stringify(noBrand))
    const run = await runCli(['validate', file])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('brand: Brand is missing (warning)\n')
    expect(run.stdout).toMatch(
      /1 SKU checked: 1 valid, 0 invalid, 1 warning\n1 SKU valid; 1 sendable; 0 held back\n$/,
    )
  })

  it('detects an app creation request and validates it as one', async () => {
    const run = await runCli(['validate', 'test/fixtures/invalid/app-request-mistakes.json'])
    expect(run.code).toBe(1)
    expect(lines(run.stdout)).toEqual([
      'expire_images_after_days: Image retention (days) must be a whole number, not the text "365"',
      'appConfig.ui_config.appearance.theme.configuration.primaryColor: Primary colour must be a hex colour such as #0F766E, not the text "teal"',
      'sdkVersion: SDK version is missing (warning)',
      '1 app checked: 0 valid, 1 invalid, 1 warning',
    ])
  })

  it('a bulk request whose "skus" is not a list is a document error, exit 1', async () => {
    const run = await runCli(['validate', 'test/fixtures/invalid/bulk-skus-not-list.json'])
    expect(run.code).toBe(1)
    expect(lines(run.stdout)).toEqual([
      'skus: The bulk request’s "skus" must be a list of SKUs',
      '0 SKUs checked: 0 valid, 0 invalid, 0 warnings, 1 error in the document itself',
    ])
  })

  it('a file that is not an object of fields says so without a path', async () => {
    const run = await runCli(['validate', await scratchFile('text.json', '"aviator"')])
    expect(run.code).toBe(1)
    expect(lines(run.stdout)[0]).toBe('SKU must be a group of fields (a JSON object), not the text "aviator"')
  })

  // Push refuses such a file ("holds nothing to send"): `validate && push` went on with it.
  it('an empty list is warned about, and exits 1: nothing in it would be sent', async () => {
    const run = await runCli(['validate', await scratchFile('empty-list.json', '[]')])
    expect(run.code).toBe(1)
    expect(lines(run.stdout)).toEqual([
      'The file holds no SKUs (warning)',
      '0 SKUs checked: 0 valid, 0 invalid, 1 warning',
    ])
  })

  it('resolves FILE against the working folder it is given', async () => {
    await scratchFile('here.json', '{"productName": 3}')
    const run = await runCli(['validate', 'here.json'], scratch)
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('productName: Product name must be text, not the number 3\n')
  })
})

describe('catalog-desk validate --json', () => {
  it('prints exactly one JSON object of the documented shape and counts', async () => {
    const run = await runCli(['validate', '--json', 'test/fixtures/invalid/sku-list-mixed.json'])
    expect(run.code).toBe(1)
    const summary = JSON.parse(run.stdout) as ValidationSummary
    expect(Object.keys(summary)).toEqual([
      'kind',
      'items',
      'valid',
      'invalid',
      'sendable',
      'heldBack',
      'errors',
      'warnings',
      'holds',
      'distinct',
      'repeated',
      'sharedBarcodes',
      'repeatedShopIds',
      'rareValues',
    ])
    expect(summary).toMatchObject({
      kind: 'sku-list',
      items: 2,
      valid: 1,
      invalid: 1,
      sendable: 1,
      heldBack: 0,
    })
    expect(summary.errors).toEqual([
      {
        index: 1,
        path: 'arEffect.envSettings.intensity',
        message: 'Intensity must be a number, not the text "high"',
      },
      {
        index: 1,
        path: 'arEffect.effectAssets3D.1.url',
        message: expect.stringContaining('Model address of 3D asset 2'),
      },
    ])
    expect(summary.warnings).toEqual([
      { index: 1, path: 'brand', message: 'Brand is missing' },
      { index: 1, path: 'barcode', message: 'Barcode is missing' },
      { index: 1, path: 'arEffect.transform.rotation', message: 'Rotation is missing' },
    ])
  })

  it('the option may follow FILE; a valid file exits 0 with empty lists', async () => {
    const run = await runCli(['validate', 'test/fixtures/bulk-upload-request.json', '--json'])
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({
      kind: 'bulk-request',
      items: 2,
      valid: 2,
      invalid: 0,
      sendable: 2,
      heldBack: 0,
      errors: [],
      warnings: [],
      holds: [],
      distinct: 2,
      repeated: [],
      sharedBarcodes: [],
      repeatedShopIds: [],
      rareValues: [],
    })
  })

  it('document-level problems have index null', async () => {
    const run = await runCli(['validate', '--json', 'test/fixtures/invalid/bulk-skus-not-list.json'])
    expect(JSON.parse(run.stdout)).toMatchObject({
      kind: 'bulk-request',
      items: 0,
      errors: [{ index: null, path: 'skus', message: expect.any(String) }],
    })
  })

  it('reads the app request as kind app-request', async () => {
    const run = await runCli(['validate', '--json', 'test/fixtures/invalid/app-request-mistakes.json'])
    expect(JSON.parse(run.stdout)).toMatchObject({ kind: 'app-request', items: 1, valid: 0, invalid: 1 })
  })
})

describe('a file that cannot be checked exits 2 and names the file', () => {
  it('a missing file', async () => {
    const run = await runCli(['validate', 'test/fixtures/no-such-file.json'])
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: 'catalog-desk: Cannot read test/fixtures/no-such-file.json: no such file\n',
    })
  })

  it('a folder', async () => {
    const run = await runCli(['validate', 'test/fixtures'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('Cannot read test/fixtures: it is a folder')
  })

  it('malformed JSON, with the parser’s position', async () => {
    const file = await scratchFile('malformed.json', '{\n  "productName": "Aviator",\n}\n')
    const run = await runCli(['validate', file, '--json'])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toContain(`Cannot parse ${file} as JSON:`)
    expect(run.stderr).toMatch(/position \d+/)
  })

  it('an empty file', async () => {
    const run = await runCli(['validate', await scratchFile('empty.json', '  \n')])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('empty.json as JSON: the file is empty')
  })

  it('but a byte order mark is not a reason to refuse a file', async () => {
    const run = await runCli(['validate', await scratchFile('bom.json', '\uFEFF{"productName": "Aviator"}')])
    expect(run.code).toBe(1) // read, and held back: it has no barcode
    expect(run.stdout).toContain('1 SKU checked: 1 valid, 0 invalid')
  })
})

describe('bad usage of validate exits 2 and points at the help', () => {
  it.each([
    [['validate'], 'Missing FILE'],
    [['validate', 'a.json', 'b.json'], 'validate checks one FILE; also given: b.json'],
    [['validate', '--yaml', 'a.json'], "Unknown option '--yaml'."],
    [['validate', '--json=yes', 'a.json'], "Option '--json' does not take an argument"],
  ])('%j', async (argv, message) => {
    const run = await runCli(argv)
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toContain(message)
    expect(run.stderr).toContain('Run "catalog-desk validate --help" for usage.')
  })
})
