import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contractJsonSchemas } from '#shared/schema/json-schema.ts'
import { runCli } from './run-cli.ts'

const NAMES = Object.keys(contractJsonSchemas()).sort()

let scratch = ''
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'catalog-desk-schema-'))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

describe('catalog-desk schema', () => {
  it('prints every schema as one JSON object keyed by document name', async () => {
    const run = await runCli(['schema'])
    expect(run.code).toBe(0)
    const printed = JSON.parse(run.stdout) as Record<string, unknown>
    expect(Object.keys(printed).sort()).toEqual(NAMES)
    expect(printed).toEqual(JSON.parse(JSON.stringify(contractJsonSchemas())))
  })

  it('--out DIR writes one parseable <name>.schema.json per document, creating DIR', async () => {
    const out = join(scratch, 'nested', 'schemas')
    const run = await runCli(['schema', '--out', out])
    expect(run.code).toBe(0)
    expect((await readdir(out)).sort()).toEqual(NAMES.map((name) => `${name}.schema.json`))
    for (const name of NAMES) {
      const schema = JSON.parse(await readFile(join(out, `${name}.schema.json`), 'utf8')) as Record<
        string,
        unknown
      >
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
      expect(run.stdout).toContain(`wrote ${join(out, `${name}.schema.json`)}\n`)
    }
  })

  it('--out is relative to the working folder', async () => {
    const run = await runCli(['schema', '--out=relative'], scratch)
    expect(run.code).toBe(0)
    expect(run.stdout.split('\n')[0]).toMatch(/^wrote relative\/[a-z-]+\.schema\.json$/)
    expect(await readdir(join(scratch, 'relative'))).toHaveLength(NAMES.length)
  })

  it('a DIR that cannot be made exits 2 naming it', async () => {
    await writeFile(join(scratch, 'a-file'), '')
    const run = await runCli(['schema', '--out', 'a-file/schemas'], scratch)
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('Cannot write the schemas to a-file/schemas')
  })

  it.each([
    [['schema', 'sku'], 'schema takes no FILE'],
    [['schema', '--out'], "Option '--out <value>' argument missing"],
    [['schema', '--out', ''], '--out needs a folder name.'],
  ])('%j is bad usage: exit 2', async (argv, message) => {
    const run = await runCli(argv)
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(message)
    expect(run.stderr).toContain('Run "catalog-desk schema --help" for usage.')
  })
})
