import { SAMPLE_ADDRESSES } from '../sample-assets.ts'
import type { FieldMeta } from '../schema/field.ts'
import { EFFECT_ASSETS_2D_SLOTS, type Sku } from '../schema/sku.ts'
import { columnTarget, describeColumn, skuColumns } from './columns.ts'
import { toCsv } from './csv.ts'
import { numberColumns, skuRow } from './export.ts'
import { HELP_MARKER, HELP_ROW_NOTE } from './help-row.ts'
import { writeXlsx } from './xlsx.ts'

/**
 * The import template: every column of the contract, headed by the field's title as the editor
 * and the import's mapping name it ("Intensity", "Model address of 3D asset 1"), which the importer
 * matches back to its field as it does a path; a second row of help (the field's words, what to
 * write, suggestions) whose first cell starts with the help marker so the importer skips it; and
 * one example row that is a valid SKU, whose model, environment and picture are the app's bundled
 * samples (src/shared/sample-assets.ts), so a first draft made from it shows them.
 */

export interface TemplateSheet {
  headers: string[]
  /** The contract path of each column, in the same order. */
  paths: string[]
  help: string[]
  example: string[]
}

/** A complete, valid eyewear SKU in the contract's words, as a filled-in row shows it. */
const EXAMPLE_SKU: Sku = {
  orgId: '',
  category: 'eyewear',
  subCategory: 'sunglasses',
  isActive: true,
  status: 'DRAFT',
  productName: 'Aviator Classic Gold 58',
  productImage: SAMPLE_ADDRESSES.picture,
  brand: 'Northwind Optics',
  barcode: '8901234567890',
  actionUrl: 'https://shop.example.com/p/aviator-classic-gold',
  version: '1.0.0',
  arEffect: {
    transform: { position: { x: 0, y: 0.012, z: -0.018 }, rotation: { x: 0, y: 0, z: 0 } },
    envSettings: {
      tileX: 1,
      tileY: 1,
      intensity: 1.2,
      fieldOfView: '30deg',
      toneMapping: 'aces',
      shadowSoftness: 0.8,
      shadowIntensity: 0.4,
      environmentImage: SAMPLE_ADDRESSES.environment,
      useDefaultEnvironment: false,
    },
    effectAssets2D: Array.from({ length: EFFECT_ASSETS_2D_SLOTS }, () => null),
    effectAssets3D: [{ id: 'frame', url: SAMPLE_ADDRESSES.model }],
  },
  meta: {
    age: 'adult',
    gender: 'unisex',
    frameShape: 'aviator',
    frameSize: 'medium',
    rimType: 'full-rim',
    material: 'metal',
    frameWidth: '137',
    lensWidth: '58',
    lensHeight: '50',
    bridge: '14',
    temple: '140',
    eyeLens: 'polarized',
    lensColorCode: '#3B3B3B',
    lensColorDescription: 'grey gradient',
    multifocalCompatible: 'no',
    dimensions: { unit: 'mm', width: '137', height: '50', length: '140' },
  },
}

function whatToWrite(meta: FieldMeta): string {
  switch (meta.kind) {
    case 'url':
      return 'A web address starting with https://.'
    case 'color':
      return 'A hex colour such as #0F766E.'
    case 'number':
      return 'A number, with a dot for decimals (1.5).'
    case 'integer':
      return 'A whole number.'
    case 'boolean':
      return 'true or false (yes/no and 1/0 work too).'
    case 'json':
      return 'JSON.'
    default:
      return 'Text, kept exactly as written.'
  }
}

function helpText(path: string): string {
  const name = describeColumn(path)
  const target = columnTarget(path)
  if (target.kind === 'slot') return `${name}: empty, null or the asset as a JSON object.`
  if (target.kind === 'json') return `${name}: JSON.`
  const meta = target.node.meta
  const parts = [`${name}.`]
  if (meta.description) parts.push(meta.description)
  parts.push(whatToWrite(meta))
  parts.push(meta.allowEmpty ? 'An empty cell sends empty text.' : 'An empty cell leaves the field out.')
  if (meta.examples?.length) parts.push(`Such as: ${meta.examples.join(', ')}.`)
  return parts.join(' ')
}

export function templateSheet(): TemplateSheet {
  const paths = skuColumns()
  const help = paths.map(helpText)
  help[0] = `${HELP_MARKER} ${help[0]} ${HELP_ROW_NOTE}`
  return { headers: paths.map(describeColumn), paths, help, example: skuRow(EXAMPLE_SKU, paths) }
}

export function templateCsv(): string {
  const { headers, help, example } = templateSheet()
  return toCsv(headers, [help, example])
}

export function templateXlsx(): Promise<Uint8Array> {
  const { headers, paths, help, example } = templateSheet()
  return writeXlsx([headers, help, example], { headerRows: 1, numberColumns: numberColumns(paths) })
}
