import { readFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import type { Sku } from '#shared/schema/sku.ts'
import { skusToCsv } from '#shared/sheet/export.ts'
import { validateSku } from '#shared/validation/validate.ts'
import { BRANDS } from './seed-drafts.ts'

/**
 * Catalogue files of any size for the benchmarks, written a stretch of SKUs at a time so that a
 * million rows never sit in the benchmark's own memory. Every SKU fills every contract column (the
 * full eyewear fixture) and differs from the others: the recipe of the import benchmark's file.
 * Written with the app's own whole-file writers (`skusToCsv`, the bulk request's layout), a stretch
 * at a time, so a file is what the app's export would have written.
 */

const SHAPES = ['aviator', 'round', 'rectangle', 'square', 'cat-eye', 'oval']
const LENSES = ['polarized', 'gradient', 'mirrored', 'clear', 'photochromic']
/** SKUs made and written at a time. */
const STRETCH = 2_000

const fixture = JSON.parse(
  readFileSync(new URL('../test/fixtures/sku-eyewear-full.json', import.meta.url), 'utf8'),
) as Sku

/** The SKU at an index: valid, filling every column, its names, barcode and addresses its own. */
export function catalogueSku(index: number): Sku {
  const sku = structuredClone(fixture) as Sku & Record<string, unknown>
  const shape = SHAPES[index % SHAPES.length]!
  Object.assign(sku, {
    productName: `${shape} ${LENSES[index % LENSES.length]} ${String(index + 1).padStart(7, '0')}`,
    brand: BRANDS[index % BRANDS.length],
    barcode: String(8_901_000_000_000 + index),
    productImage: `https://cdn.example.com/catalog/${shape}-${index}.png`,
    actionUrl: `https://shop.example.com/p/${shape}-${index}`,
  })
  const ar = sku.arEffect!
  ar.transform!.position!.y = (index % 40) / 1000
  ar.envSettings!.intensity = 0.5 + (index % 10) / 10
  ar.effectAssets3D = [{ id: `frame-${index}`, url: `https://cdn.example.com/models/${shape}-${index}.glb` }]
  Object.assign(sku.meta!, {
    frameShape: shape,
    eyeLens: LENSES[index % LENSES.length],
    lensWidth: String(48 + (index % 14)),
  })
  return sku
}

/** Writes `count` SKUs as a CSV headed by the fields' titles, as the app's export writes it. */
export async function writeCatalogueCsv(path: string, count: number): Promise<number> {
  let header = ''
  return writeInStretches(path, count, (skus, first) => {
    const csv = skusToCsv(skus)
    const end = csv.indexOf('\r\n') + 2
    // Every SKU has the same columns, so every stretch has the same header: written once.
    if (first) header = csv.slice(0, end)
    else if (csv.slice(0, end) !== header) throw new Error('A stretch of SKUs has other columns.')
    return first ? csv : csv.slice(end)
  })
}

/** Writes `count` SKUs as a bulk upload request, laid out as `convert` and the app's export write it. */
export async function writeCatalogueJson(path: string, count: number): Promise<number> {
  const item = (sku: Sku) => '    ' + JSON.stringify(sku, null, 2).replaceAll('\n', '\n    ')
  return writeInStretches(
    path,
    count,
    (skus, first) => (first ? '{\n  "skus": [\n' : ',\n') + skus.map(item).join(',\n'),
    '\n  ]\n}\n',
  )
}

async function writeInStretches(
  path: string,
  count: number,
  text: (skus: Sku[], first: boolean) => string,
  end = '',
): Promise<number> {
  const file = await open(path, 'w')
  let bytes = 0
  try {
    for (let from = 0; from < count; from += STRETCH) {
      const skus = Array.from({ length: Math.min(STRETCH, count - from) }, (_, i) => catalogueSku(from + i))
      if (from === 0 && validateSku(skus[0]).errors.length > 0)
        throw new Error('A generated SKU is not valid.')
      bytes += (await file.write(text(skus, from === 0))).bytesWritten
    }
    bytes += (await file.write(end)).bytesWritten
  } finally {
    await file.close()
  }
  return bytes
}
