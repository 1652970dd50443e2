import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newSkuPayload } from '#shared/schema/sku-template.ts'
import { readXlsx } from '#shared/sheet/xlsx.ts'
import { fixture } from '../shared/contract-fixtures.ts'
import { runCli } from './run-cli.ts'

let scratch = ''
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'catalog-desk-convert-'))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

const at = (name: string) => join(scratch, name)
const lines = (text: string) => text.trimEnd().split('\n')

describe('catalog-desk convert', () => {
  it('JSON → CSV → JSON gives back the bulk request exactly', async () => {
    const toCsv = await runCli(['convert', 'test/fixtures/bulk-upload-request.json', at('round.csv')])
    expect(toCsv).toEqual({
      code: 0,
      stdout: `2 SKUs checked: 2 valid, 0 invalid, 0 warnings\n2 SKUs valid; 2 sendable; 0 held back\nwrote ${at('round.csv')}: 2 SKUs\n`,
      stderr: '',
    })
    const csv = await readFile(at('round.csv'), 'utf8')
    expect(csv.startsWith('\uFEFForgId,category,subCategory,isActive,')).toBe(true)
    const back = await runCli(['convert', at('round.csv'), at('round.json')])
    expect(back.code).toBe(0)
    expect(JSON.parse(await readFile(at('round.json'), 'utf8'))).toEqual(fixture('bulk-upload-request.json'))
  })

  it('converts to XLSX by the extension', async () => {
    const run = await runCli(['convert', 'test/fixtures/sku-partial-meta.json', at('one.xlsx')])
    expect(run.code).toBe(0)
    const sheet = await readXlsx(await readFile(at('one.xlsx')))
    expect(sheet.rows).toHaveLength(1)
    expect(sheet.rows[0]![sheet.headers.indexOf('productName')]).toBe('Kids Round Blue')
    expect(sheet.rows[0]![sheet.headers.indexOf('arEffect.transform.rotation.x')]).toBe('-2.5')
  })

  it('invalid SKUs are reported, left out and counted; exit 1', async () => {
    const run = await runCli(['convert', 'test/fixtures/invalid/sku-list-mixed.json', at('mixed.json')])
    expect(run.code).toBe(1)
    expect(lines(run.stdout).slice(-3)).toEqual([
      '2 SKUs checked: 1 valid, 1 invalid, 3 warnings',
      '1 SKU valid; 1 sendable; 0 held back',
      `wrote ${at('mixed.json')}: 1 SKU (1 invalid left out)`,
    ])
    const written = JSON.parse(await readFile(at('mixed.json'), 'utf8')) as { skus: unknown[] }
    expect(written.skus).toEqual([(fixture('invalid/sku-list-mixed.json') as unknown as unknown[])[0]])
  })

  it('a sheet with errors: row/column lines, valid rows written', async () => {
    await writeFile(at('errors.csv'), 'Product name,Intensity\nAviator,1\nKids,high\n')
    const run = await runCli(['convert', at('errors.csv'), at('errors.json')])
    expect(run.code).toBe(1)
    expect(run.stdout).toContain(
      'line 3, column "Intensity": Intensity must be a number, not the text "high"\n',
    )
    // The row's own values, and the new-SKU defaults for the sections it does not have.
    const template = newSkuPayload()
    expect(JSON.parse(await readFile(at('errors.json'), 'utf8'))).toEqual({
      skus: [
        {
          ...template,
          productName: 'Aviator',
          arEffect: {
            ...template.arEffect,
            envSettings: { ...template.arEffect!.envSettings, intensity: 1 },
          },
        },
      ],
    })
  })

  it('refuses to overwrite OUT without --force, and overwrites with it', async () => {
    await writeFile(at('exists.json'), 'keep me')
    const refused = await runCli(['convert', 'test/fixtures/sku-eyewear-full.json', at('exists.json')])
    expect(refused).toMatchObject({ code: 2, stdout: '' })
    expect(refused.stderr).toContain(`${at('exists.json')} exists; add --force to overwrite it.`)
    expect(await readFile(at('exists.json'), 'utf8')).toBe('keep me')
    const forced = await runCli([
      'convert',
      '--force',
      'test/fixtures/sku-eyewear-full.json',
      at('exists.json'),
    ])
    expect(forced.code).toBe(0)
    expect(JSON.parse(await readFile(at('exists.json'), 'utf8'))).toEqual({
      skus: [fixture('sku-eyewear-full.json')],
    })
  })

  it('a symlink planted in OUT’s folder, at the old temporary name or as OUT, changes nothing it points to', async () => {
    const folder = at('planted')
    await mkdir(folder)
    const target = at('not-yours.txt')
    await writeFile(target, 'keep me')
    // The name the temporary file once had: predictable, since convert runs in this process.
    await symlink(target, join(folder, `.bulk.json.${process.pid}.partial`))
    const run = await runCli(['convert', 'test/fixtures/sku-eyewear-full.json', join(folder, 'bulk.json')])
    expect(run.code).toBe(0)
    expect(await readFile(target, 'utf8')).toBe('keep me')
    expect((await lstat(join(folder, 'bulk.json'))).isSymbolicLink()).toBe(false)
    expect(JSON.parse(await readFile(join(folder, 'bulk.json'), 'utf8'))).toEqual({
      skus: [fixture('sku-eyewear-full.json')],
    })

    // OUT a link to a file that does not exist yet: refused without --force, nothing created there.
    const nowhere = at('nowhere.json')
    await symlink(nowhere, join(folder, 'dangling.json'))
    const refused = await runCli([
      'convert',
      'test/fixtures/sku-eyewear-full.json',
      join(folder, 'dangling.json'),
    ])
    expect(refused.code).toBe(2)
    await expect(lstat(nowhere)).rejects.toThrow(/ENOENT/)

    // OUT a link, with --force: the link is replaced by the file, what it pointed to is untouched.
    await symlink(target, join(folder, 'linked.json'))
    const forced = await runCli([
      'convert',
      '--force',
      'test/fixtures/sku-eyewear-full.json',
      join(folder, 'linked.json'),
    ])
    expect(forced.code).toBe(0)
    expect(await readFile(target, 'utf8')).toBe('keep me')
    expect((await lstat(join(folder, 'linked.json'))).isSymbolicLink()).toBe(false)
    // Only what the test planted and what convert wrote: no temporary file left behind.
    expect((await readdir(folder)).sort()).toEqual(
      [`.bulk.json.${process.pid}.partial`, 'bulk.json', 'dangling.json', 'linked.json'].sort(),
    )
  })

  it.each([
    [['convert'], 'Missing IN or OUT'],
    [['convert', 'a.json'], 'Missing IN or OUT'],
    [['convert', 'a.json', 'b.json', 'c.json'], 'convert takes IN and OUT; also given: c.json'],
    [['convert', 'a.json', 'b.yaml'], 'OUT must end in .json, .csv or .xlsx, not "b.yaml".'],
    [['convert', 'a.json', './a.json'], 'IN and OUT are the same file'],
    [['convert', '--overwrite', 'a.json', 'b.json'], "Unknown option '--overwrite'."],
  ])('bad usage %j exits 2', async (argv, message) => {
    const run = await runCli(argv)
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toContain(message)
    expect(run.stderr).toContain('Run "catalog-desk convert --help" for usage.')
  })

  it('an unreadable IN exits 2 and writes nothing', async () => {
    const run = await runCli(['convert', 'test/fixtures/bad-files/latin1.csv', at('never.json')])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('Cannot read test/fixtures/bad-files/latin1.csv: The file is not UTF-8 text')
    await expect(readFile(at('never.json'))).rejects.toThrow()
  })

  it('an app creation request is not SKUs: exit 2', async () => {
    const run = await runCli(['convert', 'test/fixtures/app-create-request.json', at('app.csv')])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('holds an app creation request; convert works on SKUs.')
  })

  it('has a usage text with the exit statuses', async () => {
    const run = await runCli(['convert', '--help'])
    expect(run.code).toBe(0)
    expect(run.stdout.split('\n')[0]).toBe(
      'Usage: catalog-desk convert IN OUT [--force] [--all] [--require FIELDS | --profile NAME]',
    )
    expect(run.stdout).toContain(
      'Exit status: 0 every SKU valid, written and sendable, 1 some SKU invalid or held back',
    )
    expect((await runCli(['--help'])).stdout).toContain('convert IN OUT [--force]')
  })
})
