import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '#cli/main.ts'
import { fixture } from '../shared/contract-fixtures.ts'
import { barcodesIn, pushHarness } from './push-harness.ts'

/** `catalog-desk push` in-process against a real sandbox on loopback. */

const TOKEN = 'push-test-token-5d1e'
const harness = pushHarness({ token: TOKEN, barcodePrefix: 'PUSH' })
const { sandboxFor, push, skus } = harness

async function inputFile(name: string, content: unknown): Promise<string> {
  await writeFile(join(harness.dir(), name), JSON.stringify(content))
  return name
}

describe('catalog-desk push', () => {
  it('sends every SKU in batches; exit 0; --json counts; --report one entry per SKU', async () => {
    const sandbox = await sandboxFor()
    const file = await inputFile('skus.json', skus(7))
    const run = await push([
      file,
      '--base-url',
      sandbox.url,
      '--token-env',
      'PUSH_TOKEN',
      '--batch-size',
      '3',
      '--json',
      '--report',
      'report.json',
    ])
    expect(run.stderr).not.toContain(TOKEN)
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({
      total: 7,
      synced: 7,
      rejected: 0,
      failed: 0,
      unknown: 0,
      invalid: 0,
      held: 0,
      created: { synced: 7, rejected: 0, failed: 0, unknown: 0 },
      updated: { synced: 0, rejected: 0, notFound: 0, failed: 0, unknown: 0 },
      unchanged: 0,
      marked: 0,
      notUpdated: 0,
      status: 'finished',
    })
    expect(barcodesIn(sandbox)).toEqual(skus(7).map((sku) => sku.barcode))
    expect(
      sandbox
        .requests()
        .filter((entry) => entry.endpoint === 'skus')
        .map((entry) => entry.skuCount),
    ).toEqual([3, 3, 1])
    const report = JSON.parse(await readFile(join(harness.dir(), 'report.json'), 'utf8')) as unknown[]
    expect(report).toHaveLength(7)
    expect(report[0]).toEqual({ index: 0, barcode: 'PUSH-0', state: 'synced', action: 'create' })
    // The last progress comes before the run's "Done", once.
    expect(run.stderr).toMatch(/Progress: 7 of 7 SKUs done[^\n]*\nDone: 7 synced/)
    expect(run.stderr.match(/Progress: 7 of 7/g)).toHaveLength(1)
  })

  it.each([
    ['the input file', (file: string) => file, 'is the input file'],
    ['the journal', (_file: string, url: string) => harness.journalOf(url), 'is the journal'],
    [
      'a folder that is not there',
      () => 'missing/report.json',
      'its folder does not exist or cannot be written',
    ],
  ])('a --report that is %s is refused before anything is sent; exit 2', async (_, report, says) => {
    const sandbox = await sandboxFor()
    const file = await inputFile('guarded.json', skus(2))
    const run = await push([
      file,
      '--base-url',
      sandbox.url,
      '--token-env',
      'PUSH_TOKEN',
      '--report',
      report(file, sandbox.url),
    ])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(says)
    expect(sandbox.requests()).toHaveLength(0)
    expect(JSON.parse(await readFile(join(harness.dir(), file), 'utf8'))).toEqual(skus(2))
  })

  it('invalid SKUs are not sent (listed with why), refused ones are rejected with the service message; exit 1', async () => {
    const sandbox = await sandboxFor({ rejectBarcodes: ['PUSH-4'] })
    const list: Record<string, unknown>[] = skus(6)
    list[2]!.isActive = 'yes'
    const file = await inputFile('mixed.json', list)
    const run = await push([
      file,
      '--base-url',
      sandbox.url,
      '--token-env',
      'PUSH_TOKEN',
      '--report',
      'r.json',
    ])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('1 of 6 SKUs do not meet the contract and are not sent')
    expect(run.stderr).toMatch(/\[2\] PUSH-2: isActive: /)
    expect(run.stdout).toMatch(
      /^6 SKUs: 4 synced, 1 rejected, 0 failed, 0 unknown, 1 not valid \(not sent\)\./,
    )
    expect(run.stdout).toMatch(
      /rejected: \[4\] PUSH-4: .*refused by the service.*barcode: The service refuses the barcode PUSH-4/,
    )
    expect(barcodesIn(sandbox).sort()).toEqual(['PUSH-0', 'PUSH-1', 'PUSH-3', 'PUSH-5'])
    const report = JSON.parse(await readFile(join(harness.dir(), 'r.json'), 'utf8')) as { state: string }[]
    expect(report.map((entry) => entry.state)).toEqual([
      'synced',
      'synced',
      'invalid',
      'synced',
      'rejected',
      'synced',
    ])
  })

  it('says which fields the SKUs it sends have warnings on, as validate would, before sending them', async () => {
    const sandbox = await sandboxFor()
    await writeFile(
      join(harness.dir(), 'status.csv'),
      // A shop's own status (a tryout's Thai sheet sent "พร้อมขาย" without a word) and no sub-category.
      'barcode,productName,category,status\nS-1,One,eyewear,Bereit\nS-2,Two,eyewear,DRAFT\n',
    )
    const run = await push(['status.csv', '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN'])
    expect(run.code).toBe(0)
    expect(run.stderr).toContain('note: valid SKUs with a warning on a value: status (1)\n')
    expect(run.stderr).toMatch(/note: valid SKUs without fields the contract lists: .*Sub-category \(2\)/)
    expect(barcodesIn(sandbox).sort()).toEqual(['S-1', 'S-2'])
  })

  it('a CSV sheet is read as validate reads it', async () => {
    const sandbox = await sandboxFor()
    await writeFile(
      join(harness.dir(), 'sheet.csv'),
      // A category, which push requires by default (the gates are push-gates.test.ts's).
      'barcode,productName,category,isActive\nC-1,One,eyewear,true\nC-2,Two,eyewear,true\n',
    )
    const run = await push(['sheet.csv', '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN', '--json'])
    expect(JSON.parse(run.stdout)).toMatchObject({ total: 2, synced: 2 })
    expect(barcodesIn(sandbox)).toEqual(['C-1', 'C-2'])
    // --show-mapping with --json: the mapping is the JSON's, as validate gives it, not text on stderr.
    for (const dryRun of [['--dry-run'], []]) {
      const shown = await push([
        'sheet.csv',
        ...['--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN', '--json', '--show-mapping'],
        ...dryRun,
      ])
      expect(JSON.parse(shown.stdout)).toMatchObject({
        mapping: { columns: { barcode: 'barcode', productName: 'productName', category: 'category' } },
      })
      expect(shown.stderr).not.toContain('mapping used')
    }
  })

  it('an app creation request: one app, its _id and the fields the service did not keep', async () => {
    const sandbox = await sandboxFor()
    const file = await inputFile('app.json', fixture('app-create-request.json'))
    const text = await push([file, '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN'])
    expect(text.code).toBe(0)
    const id = sandbox.received().apps[0]!.id
    expect(text.stdout).toContain(`App id: ${id}`)
    expect(text.stdout).toContain('report_config.features: returned empty')
    expect(text.stdout).toContain('appConfig.ui_config.customCode: returned empty')
    // A second run resumes from the journal: the app is not created twice, and its id is still known.
    const again = await push([file, '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN', '--json'])
    expect(sandbox.received().apps).toHaveLength(1)
    const json = JSON.parse(again.stdout) as { app: { _id: string; droppedFields: { path: string }[] } }
    expect(json.app._id).toBe(id)
    expect(json.app.droppedFields).toContainEqual({ path: 'report_config.features', change: 'emptied' })

    // Changed since (held: no update for apps), nothing is sent: no id or lost field is said of it.
    const changed = await inputFile('app-changed.json', {
      ...(fixture('app-create-request.json') as Record<string, unknown>),
      sdkVersion: '9.9.9',
    })
    const held = await push([changed, '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN'])
    expect(held.code).toBe(1)
    expect(held.stdout).toContain('held: [0]')
    expect(held.stdout).not.toContain('App id')
    expect(held.stdout).not.toContain('did not keep')
    // Held as changed, not for a SKU's fields: nothing is said of fields required.
    expect(held.stderr).toContain(
      '1 of 1 app is held back and not sent: 1 changed, and the service cannot update them.',
    )
    const heldJson = await push([changed, '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN', '--json'])
    expect(JSON.parse(heldJson.stdout)).not.toHaveProperty('app')
    expect(sandbox.received().apps).toHaveLength(1)
  })

  it('a refused token ends the run early: nothing lost, exit 1, the token never printed', async () => {
    const sandbox = await sandboxFor()
    const file = await inputFile('skus.json', skus(4))
    const run = await push([file, '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN', '--json'], {
      env: { PUSH_TOKEN: 'wrong-token-123' },
    })
    expect(run.code).toBe(1)
    expect(JSON.parse(run.stdout)).toMatchObject({
      synced: 0,
      queued: 4,
      status: 'paused',
      reason: 'needs-token',
    })
    expect(run.stdout + run.stderr).not.toContain('wrong-token-123')
    // What to do names where the token came from: no profile was used.
    expect(run.stderr).toContain(
      'Nothing was created. Check the token the environment variable PUSH_TOKEN gives.',
    )
    expect(run.stderr).not.toContain('profile')
    // With the right token, the same command resumes and sends them.
    const fixed = await push([file, '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN', '--json'])
    expect(JSON.parse(fixed.stdout)).toMatchObject({ synced: 4, status: 'finished' })
  })

  it('a token a header cannot carry as it is: refused before anything is read or sent, naming its variable', async () => {
    const sandbox = await sandboxFor()
    const file = await inputFile('skus.json', skus(1))
    const run = await push([file, '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN'], {
      env: { PUSH_TOKEN: 'two words', CATALOG_DESK_DATA_DIR: harness.dataDir() },
    })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(
      'The token the environment variable PUSH_TOKEN gives holds spaces, line breaks or other characters a request header cannot carry as it is',
    )
    expect(run.stderr).not.toContain('two words')
    expect(sandbox.requests()).toHaveLength(0)
  })

  it('a wrong address (404) stops the run: the batch failed, nothing more sent', async () => {
    const sandbox = await sandboxFor()
    const file = await inputFile('skus.json', skus(4))
    const run = await push([
      file,
      '--base-url',
      `${sandbox.url}/wrong`,
      '--token-env',
      'PUSH_TOKEN',
      '--batch-size',
      '2',
      '--json',
    ])
    expect(run.code).toBe(1)
    expect(JSON.parse(run.stdout)).toMatchObject({ failed: 2, queued: 2, status: 'stopped' })
    expect(run.stderr).toContain('Nothing was created. Check --base-url and the API version.')
    expect(run.stderr).not.toContain('profile')
    expect(sandbox.requests()).toHaveLength(1)
  })

  it('an unreachable service ends the run with everything still to send', async () => {
    const sandbox = await sandboxFor()
    const url = sandbox.url
    await sandbox.close()
    const file = await inputFile('skus.json', skus(2))
    const run = await push([file, '--base-url', url, '--token-env', 'PUSH_TOKEN', '--json'])
    expect(run.code).toBe(1)
    expect(JSON.parse(run.stdout)).toMatchObject({ queued: 2, status: 'paused', reason: 'offline' })
  }, 20_000)
})

describe('catalog-desk push: usage', () => {
  it.each([
    [['f.json', '--base-url', 'http://127.0.0.1:1'], /exactly one of --token-env NAME or --profile NAME/],
    [['f.json', '--base-url', 'http://127.0.0.1:1', '--token-env', 'A', '--profile', 'p'], /exactly one/],
    [['f.json', '--token-env', 'PUSH_TOKEN'], /Missing --base-url/],
    [
      ['f.json', '--base-url', 'http://example.com', '--token-env', 'PUSH_TOKEN'],
      /--base-url "http:\/\/example.com": Enter the service address as https/,
    ],
    [
      ['f.json', '--base-url', 'http://127.0.0.1:2375/containers/create#', '--token-env', 'PUSH_TOKEN'],
      /without a query or fragment/,
    ],
    [['f.json', '--base-url', 'http://127.0.0.1:1', '--token-env', 'NOPE'], /NOPE is not set or empty/],
    [
      ['f.json', '--base-url', 'http://127.0.0.1:1', '--token-env', 'PUSH_TOKEN', '--batch-size', '0'],
      /--batch-size must be a whole number from 1 to 1000/,
    ],
    [
      ['f.json', '--base-url', 'http://127.0.0.1:1', '--token-env', 'PUSH_TOKEN', '--concurrency', '9'],
      /--concurrency/,
    ],
    [
      ['missing.json', '--base-url', 'http://127.0.0.1:1', '--token-env', 'PUSH_TOKEN'],
      /Cannot read missing.json: no such file/,
    ],
  ])('%j → exit 2', async (argv, message) => {
    await inputFile('f.json', skus(1))
    const run = await push(argv)
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(message)
  })

  // `--token-env "$CATALOG_TOKEN"` puts the token where the variable's name belongs: whatever
  // --token-env was given is never printed unless it looks like a variable's name.
  it.each([
    [
      'the value of an exported variable, not a name',
      'push-test-token-5d1e',
      { CATALOG_TOKEN: TOKEN },
      /given the value of the environment variable CATALOG_TOKEN.*write --token-env CATALOG_TOKEN \(without the \$\)/,
    ],
    [
      'the value of an exported variable, shaped like a name',
      'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
      { CATALOG_TOKEN: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc\n' },
      /given the value of the environment variable CATALOG_TOKEN/,
    ],
    [
      'a token that is no variable’s value and not a name',
      'eyJhbGciOiJIUzI1NiJ9.e30.ZRrHA1JJJW8opsbCGfG_HACGpVUMN_a9IV7pAx_Zmeo',
      {},
      /--token-env takes the name of an environment variable.*what it was given is not one, and is not repeated here/,
    ],
    [
      'a token shaped like a name that is set nowhere',
      'AKIAIOSFODNN7EXAMPLE',
      {},
      /The environment variable named by --token-env is not set or empty.*not repeated here/,
    ],
  ])('--token-env given %s never prints it; exit 2', async (_case, secret, env, message) => {
    await inputFile('f.json', skus(1))
    const run = await push(['f.json', '--base-url', 'http://127.0.0.1:1', '--token-env', secret], { env })
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(message)
    expect(run.stderr + run.stdout).not.toContain(secret)
    expect(run.stderr + run.stdout).not.toContain(secret.slice(0, 12))
  })

  it('--help prints the usage; the main usage lists push', async () => {
    const run = await push(['--help'])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^Usage: catalog-desk push FILE/)
    // --base-url is needed only with --token-env: a profile brings its address.
    expect(run.stdout.split('\n')[0]).toBe(
      'Usage: catalog-desk push FILE (--base-url URL --token-env NAME | --profile NAME [--base-url URL])',
    )
    expect(run.stdout).toMatch(/Required with --token-env; optional with --profile/)
    // Every reason a push ends early is explained, the 'failing' pause among them.
    expect(run.stdout).toMatch(
      /several requests in\s+a row may or may not have been processed \(failing: check the platform first/,
    )
    expect(run.stdout).toMatch(/needs-token, offline, busy or failing/)
    expect(run.stdout).toMatch(/a name several profiles share is\s+refused, give the id/)
    // The gates, what push cannot know, and how to settle what is left unknown or failed.
    expect(run.stdout).toMatch(/those that fail one are "held" back: not sent/)
    expect(run.stdout).toMatch(/What push cannot know: what other journals or the app created/)
    // A team (issue #42): push claims nothing, so it says how a team sends.
    expect(run.stdout).toMatch(/push does not know team workspaces: it neither claims SKUs/)
    expect(run.stdout).toMatch(/journal of its own per destination/)
    // Matching by barcode, updates, and how to give the platform's ids.
    expect(run.stdout).toMatch(/SKUs are matched by barcode with what push sent to the same address before/)
    expect(run.stdout).toMatch(/--no-updates\s+Create only/)
    expect(run.stdout).toMatch(/updated: \{synced, rejected, notFound, failed, unknown, queued\?\}/)
    expect(run.stdout).toMatch(/The service has no read endpoint/)
    expect(run.stdout).toMatch(/--require FIELDS .*\n.*\n\s+category, subCategory, brand/)
    expect(run.stdout).toMatch(/--unresolved check\.csv .*\n.*\n.*\n.*--platform-has found\.txt/)
    const help = { out: '' }
    await main(['--help'], {
      stdout: { write: (t: string) => (help.out += t) },
      stderr: { write: () => {} },
      cwd: harness.dir(),
    })
    expect(help.out).toMatch(/push FILE \[options\]/)
  })
})
