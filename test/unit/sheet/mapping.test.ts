import { describe, expect, it } from 'vitest'
import { matchColumns } from '#shared/sheet/columns.ts'
import {
  applyMappingFile,
  defaultSettings,
  MAPPING_FILE_FORMAT,
  mappingFileOf,
  parseMappingFile,
  sheetMapping,
} from '#shared/sheet/mapping.ts'

const file = (body: object) => JSON.stringify({ format: MAPPING_FILE_FORMAT, ...body })

describe('mapping files', () => {
  it('come back as they were saved, and apply by header whatever the column order', () => {
    const headers = ['Product Name', 'SKU Code', 'EAN', 'Price']
    const mapping = {
      ...sheetMapping(matchColumns(headers)),
      columns: ['productName', 'barcode', null, 'keep:price'],
      constants: { status: 'DRAFT' },
    }
    const saved = parseMappingFile(JSON.stringify(mappingFileOf(headers, mapping)))
    const reordered = ['Price', 'EAN', 'SKU Code', 'Product Name', 'Notes']
    const { mapping: applied } = applyMappingFile(reordered, saved)
    expect(applied.columns).toEqual(['keep:price', null, 'barcode', 'productName', null])
    expect(applied.constants).toEqual({ status: 'DRAFT' })
  })

  it.each([
    [
      { columns: { Colour: 'colour' } },
      'at "columns.Colour": “colour” is not a field of the contract; to keep the column as an extra field, write "keep:colour"',
    ],
    [{ columns: { Brand: 'keep:brand' } }, 'at "columns.Brand": “brand” is a field of the contract'],
    [{ columns: { Width: 'unit:brand' } }, 'at "columns.Width": “unit:brand” is not the unit of a length'],
    [{ constants: { isActive: 'maybe' } }, 'at "constants.isActive": Active must be yes or no'],
    [{ constants: { nothing: 'x' } }, 'at "constants.nothing": “nothing” is not a field of the contract'],
    [{ columns: { EAN: 12 } }, 'at "columns.EAN":'],
  ])('a file that cannot be used says where: %j', (body, message) => {
    expect(() => parseMappingFile(file(body))).toThrow(message)
  })

  it('refuses a file that is not a mapping, and text that is not JSON', () => {
    expect(() => parseMappingFile('{"skus": []}')).toThrow('it is not a Catalog Desk mapping')
    expect(() => parseMappingFile('columns: x')).toThrow('It is not JSON')
  })

  it('settings a file leaves out follow the file read: no defaults for Catalog Desk’s own export, even with choices saved', () => {
    const ownExport = ['productName', 'barcode', 'category']
    expect(defaultSettings(matchColumns(ownExport)).fillDefaults).toBe(false)
    expect(applyMappingFile(ownExport, { columns: { barcode: 'barcode' } }).mapping.fillDefaults).toBe(false)
    expect(applyMappingFile(['Product Name', 'EAN'], { columns: {} }).mapping.fillDefaults).toBe(true)
  })
})
