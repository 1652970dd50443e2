import { describe, expect, it } from 'vitest'
import { readJson } from '#renderer/features/import/read-sheet.ts'

describe('importing a JSON file', () => {
  it('refuses bytes that are not UTF-8 instead of importing "�" in their place', async () => {
    const file = new File([Buffer.from('{"productName":"M\xfcller","barcode":"1"}', 'latin1')], 'latin1.json')
    await expect(readJson(file)).rejects.toThrow('The file is not UTF-8 text')
  })

  it('reads UTF-16 with its byte order mark, and UTF-8 with one', async () => {
    for (const bytes of [
      Buffer.from('\uFEFF{"productName":"Müller","barcode":"1"}', 'utf16le'),
      Buffer.from('\uFEFF{"productName":"Müller","barcode":"1"}', 'utf8'),
    ]) {
      const read = await readJson(new File([bytes], 'sku.json'))
      expect(read.results.map((result) => result.sku)).toEqual([{ productName: 'Müller', barcode: '1' }])
    }
  })

  it('refuses a document nested thousands of levels deep, and takes a deep but sane one', async () => {
    const nested = (levels: number) =>
      `{"productName":"Aviator","extra":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}`
    await expect(readJson(new File([nested(5000)], 'deep.json'))).rejects.toThrow(
      'It nests objects or lists more than 100 levels deep.',
    )
    const sane = await readJson(new File([nested(50)], 'deep.json'))
    expect(sane.results).toHaveLength(1)
  })
})
