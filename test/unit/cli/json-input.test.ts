import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkInput } from '#cli/check-input.ts'

/**
 * How the CLI reads JSON (check-input.ts): a file of at most 4 MB parsed whole, a larger one as it
 * streams, a quarter of a megabyte at a time, with its own reads and decoding. Either way it gives
 * the same items, and what one parse of the whole file would take silently (a second "skus" list,
 * a document nested too deep) is refused as the streaming reader refuses it.
 */

let scratch = ''
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'catalog-desk-json-input-'))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

/** The items and kind of `bytes` read as a JSON file, or the message it is refused with. */
async function read(name: string, bytes: string | Buffer) {
  const file = join(scratch, name)
  await writeFile(file, bytes)
  const items: unknown[] = []
  try {
    const checked = await checkInput(file, scratch, {}, (item) => items.push(item.payload), {
      validate: false,
    })
    return { items, kind: checked.kind, fileErrors: checked.fileErrors.length }
  } catch (error) {
    return { error: (error as Error).message.replace(file, name) }
  }
}

/** One SKU of about `length` characters, its name full of characters of two, three and four bytes. */
function sku(index: number, length = 600) {
  const name = 'Ünïcødé € 中文 😀 '.repeat(Math.ceil(length / 16)).slice(0, length)
  return { barcode: `B${index}`, productName: name }
}

/** More than 4 MB of SKUs: read as it streams, stretches cut inside characters. */
const MANY = Array.from({ length: 5_000 }, (_, index) => sku(index, 600 + (index % 7)))

describe('small and large JSON files give the same items', () => {
  it('a list and a bulk request, with a byte order mark, small and large', async () => {
    for (const skus of [MANY.slice(0, 3), MANY]) {
      const list = await read('list.json', `\uFEFF${JSON.stringify(skus)}`)
      expect(list).toEqual({ items: skus, kind: 'sku-list', fileErrors: 0 })
      const request = await read('request.json', JSON.stringify({ orgId: 'o', skus, after: [1] }))
      expect(request).toEqual({ items: skus, kind: 'bulk-request', fileErrors: 0 })
    }
    expect(Buffer.byteLength(JSON.stringify(MANY))).toBeGreaterThan(4 * 1024 * 1024)
  })

  it('one SKU, or a bulk request whose skus is no list, is read as a whole', async () => {
    expect(await read('one.json', JSON.stringify(sku(1)))).toEqual({
      items: [sku(1)],
      kind: 'sku',
      fileErrors: 0,
    })
    expect(await read('no-list.json', '{"skus": null, "orgId": "o"}')).toMatchObject({
      kind: 'bulk-request',
      fileErrors: 1,
    })
  })

  it('a byte that is not UTF-8, early or late, small or large', async () => {
    const refused = { error: expect.stringContaining('Cannot read bad.json: The file is not UTF-8 text.') }
    for (const text of [Buffer.from(JSON.stringify(MANY.slice(0, 3))), Buffer.from(JSON.stringify(MANY))]) {
      for (const at of [10, text.length - 10]) {
        const bad = Buffer.from(text)
        bad[at] = 0xff
        expect(await read('bad.json', bad)).toEqual(refused)
      }
    }
    // A character cut short by the end of the file.
    expect(await read('bad.json', Buffer.from('["€"]').subarray(0, 4))).toEqual(refused)
  })
})

describe('what one parse of the whole file would take is refused, as the streaming reader refuses it', () => {
  it('a second "skus" list, written plainly or with escapes', async () => {
    for (const second of ['"skus"', '"sk\\u0075s"']) {
      const run = await read('twice.json', `{"skus": [{"barcode": "1"}], ${second}: []}`)
      expect(run.error).toMatch(/^Cannot use twice\.json: The object names "skus" a second time/)
    }
  })

  it('"skus" elsewhere in the file, and a list named "skus" after another value, are read', async () => {
    const elsewhere = [{ barcode: '1', productName: 'skus" and \\u escapes' }]
    expect(await read('elsewhere.json', JSON.stringify({ skus: elsewhere }))).toEqual({
      items: elsewhere,
      kind: 'bulk-request',
      fileErrors: 0,
    })
    expect(await read('later.json', '{"skus": 1, "skus": [{"barcode": "1"}]}')).toEqual({
      items: [{ barcode: '1' }],
      kind: 'bulk-request',
      fileErrors: 0,
    })
  })

  it('a second "skus" after many words ending in "kus", and "kus" at the very start, are told apart', async () => {
    const names = Array.from({ length: 50 }, (_, index) => ({ barcode: `${index}`, productName: `Markus` }))
    const once = JSON.stringify({ skus: names })
    expect(await read('markus.json', once)).toEqual({ items: names, kind: 'bulk-request', fileErrors: 0 })
    const twice = await read('markus-twice.json', `${once.slice(0, -1)}, "skus": []}`)
    expect(twice.error).toMatch(/^Cannot use markus-twice\.json: The object names "skus" a second time/)
    expect(await read('kus.json', '["kus"]')).toEqual({ items: ['kus'], kind: 'sku-list', fileErrors: 0 })
  })

  it('a document nested more than 100 levels deep', async () => {
    const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`
    expect(await read('deep.json', `{"a": ${deep(100)}}`)).toEqual({
      error: 'Cannot use deep.json: it nests objects or lists more than 100 levels deep',
    })
    expect(await read('deep-enough.json', `{"skus": [${deep(98)}]}`)).toMatchObject({ kind: 'bulk-request' })
    // Objects in objects, below a SKU of a list: the same limit.
    const objects = (levels: number) => `${'{"a": '.repeat(levels)}1${'}'.repeat(levels)}`
    expect(await read('deep-objects.json', `[{"barcode": "1"}, ${objects(100)}]`)).toEqual({
      error: 'Cannot use deep-objects.json: it nests objects or lists more than 100 levels deep',
    })
    // Keyed by a field of the contract, so it is SKUs (a list of other objects is a product list).
    const fields = (levels: number) => `${'{"productName": '.repeat(levels)}1${'}'.repeat(levels)}`
    expect(await read('deep-objects-enough.json', `[${fields(99)}]`)).toMatchObject({ kind: 'sku-list' })
  })
})
