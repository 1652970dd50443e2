import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sku } from '#shared/schema/sku.ts'
import { runCli } from './run-cli.ts'

/**
 * PrestaShop's own sample import files, byte for byte (test/fixtures/sheets/exports/real/SOURCES.md):
 * 9.1's (semicolon-separated, lists joined by commas) and thirty bees' 1.6 dialect
 * (comma-separated, lists joined by semicolons). 7 products; 27 combinations of products 1, 2, 3
 * and 5. Read together, through the CLI, as a catalog manager would check them.
 */

const REAL = 'test/fixtures/sheets/exports/real'
const DIALECTS = [
  {
    name: 'PrestaShop 9.1',
    products: `${REAL}/prestashop-9.1-products-import.csv`,
    combinations: `${REAL}/prestashop-9.1-combinations-import.csv`,
    productImage: 'http://localhost/prestashop/img/p/1/3/13.jpg',
  },
  {
    name: 'thirty bees (PrestaShop 1.6)',
    products: `${REAL}/thirtybees-products-import.csv`,
    combinations: `${REAL}/thirtybees-combinations-import.csv`,
    productImage: 'http://localhost/thirtybees/img/p/1/3/13.jpg',
  },
]

let scratch = ''
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'catalog-desk-prestashop-'))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

type Named = Sku & { options?: Record<string, string> }

describe.each(DIALECTS)('$name: the products file with its combinations file', (dialect) => {
  it('convert: each combination is a SKU named by its product and options, with its own codes', async () => {
    const out = join(scratch, `${dialect.name.replace(/\W+/g, '-')}.json`)
    const run = await runCli(['convert', dialect.products, out, '--combinations', dialect.combinations])
    expect(run.stderr).toBe('')
    expect(run.stdout).toContain('read as a PrestaShop product import: 7 products, 27 variants')
    const { skus } = JSON.parse(await readFile(out, 'utf8')) as { skus: Named[] }
    // Products 4, 6 and 7 have no combinations and stay SKUs; 1, 2, 3 and 5 are their 27 combinations.
    expect(skus).toHaveLength(30)
    const names = skus.map((sku) => sku.productName)
    expect(names.slice(0, 3)).toEqual([
      'MacBook',
      'Belkin Leather Folio for iPod nano - Black / Chocolate',
      'Shure SE210 Sound-Isolating Earphones for iPod and iPhone',
    ])
    for (const parent of ['iPod Nano', 'iPod shuffle', 'MacBook Air', 'iPod touch'])
      expect(names).not.toContain(parent)

    const nano = skus.find((sku) => sku.productName === 'iPod Nano – Blue / 16GB')!
    expect(nano).toMatchObject({
      barcode: '0000080446392',
      brand: 'Apple',
      category: 'iPods',
      productImage: 'http://youdomain.com/img.jpg',
      isActive: true,
      options: { Color: 'Blue', 'Disk space': '16GB' },
    })
    // A combination's code is its own, never its product's ("1234567890123").
    expect(skus.filter((sku) => sku.barcode === '1234567890123')).toHaveLength(3)
    expect(skus.find((sku) => sku.productName?.startsWith('iPod touch – '))).toMatchObject({
      productName: 'iPod touch – 8GB',
      barcode: '8456120000000',
      options: { 'Disk space': '8GB' },
    })
    expect(skus.find((sku) => sku.productName?.startsWith('MacBook Air – '))?.options).toEqual({
      Color: 'Metal',
      'Disk space': '80GB Parallel ATA Drive @ 4200 rpm',
      ICU: '1.60GHz Intel Core 2 Duo',
    })
    // A product without combinations keeps its own category and first picture.
    expect(skus[1]).toMatchObject({
      category: 'accessories',
      brand: 'Belkin',
      productImage: dialect.productImage,
    })
  })

  it('validate: the columns mapped as a catalog manager would, and where each file’s rows are', async () => {
    const run = await runCli([
      'validate',
      dialect.products,
      '--combinations',
      dialect.combinations,
      '--show-mapping',
    ])
    expect(run.stderr).toBe('')
    const mapping = JSON.parse(
      run.stdout.slice(run.stdout.indexOf('{'), run.stdout.indexOf('\n}\n') + 2),
    ) as {
      columns: Record<string, string | null>
    }
    const list = dialect.name.startsWith('thirty') ? ';' : ','
    expect(mapping.columns).toMatchObject({
      'Name *': 'productName',
      Manufacturer: 'brand',
      [`Categories (x${list}y${list}z...)`]: 'category',
      [`Image URLs (x${list}y${list}z...)`]: 'productImage',
      EAN13: 'barcode',
      UPC: null,
      'Reference #': null,
      'Active (0/1)': 'isActive',
      // The shipping package's, not the product's.
      Width: null,
      Weight: null,
    })
    expect(run.stdout).toContain(
      `note: ${dialect.products}'s rows (7) and ${dialect.combinations}'s (27) are read as one sheet; each problem names its file and line`,
    )
    expect(run.stdout).toContain(
      'note: column "EAN13" fills Barcode; "UPC" could too and is ignored ("EAN13" comes first in the file)',
    )
    expect(run.stdout).toContain('30 SKUs checked: 30 valid, 0 invalid')
    // The sample's shared codes are said, with the rows that share them: each in its own file, at
    // the line a spreadsheet shows it on (rows 24 to 27 of the two read as one: the combinations
    // file's rows 17 to 20, its lines 18 to 21).
    expect(run.stdout).toContain(`barcode 0685387000000 is on ${dialect.combinations} lines 18, 19, 20, 21`)
    // A combination is its product's ID and its values: the sample lists one of them twice.
    expect(run.stdout).toContain(
      `shop id 3 / Metal / Optional 64GB solid-state drive / 1.60GHz Intel Core 2 Duo is on ${dialect.combinations} lines 24, 25\n`,
    )
    expect(run.stdout.match(/^ {2}shop id /gm)).toHaveLength(1)
  })

  it('the files are told apart by their headers, in either order', async () => {
    const run = await runCli(['validate', dialect.combinations, '--combinations', dialect.products, '--json'])
    expect(JSON.parse(run.stdout)).toMatchObject({ kind: 'csv', items: 30, valid: 30 })
  })

  it('the combinations file alone is refused, naming the products file it needs', async () => {
    const run = await runCli(['validate', dialect.combinations])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toContain(
      `Cannot read ${dialect.combinations}: It is PrestaShop’s combinations file: it lists variants of the products in PrestaShop’s products file (products_import.csv)`,
    )
    expect(run.stderr).toContain(
      `give both files (validate products_import.csv --combinations ${dialect.combinations})`,
    )
  })
})

/**
 * A combinations file headed with the back office's labels in the shop's language, beside an
 * English products file: a few lines written here after a real Spanish pair
 * (cotanol/Scrapping-testing @ 47cc418c, 20251013012751-royo-*_import.csv, no licence to copy it),
 * whose combinations file was refused as "neither is PrestaShop's combinations file", and the
 * labels a French shop's generator writes.
 */
const PRODUCTS = [
  '"Product ID";"Active (0/1)";"Name *";"Categories (x,y,z...)";"Reference #";"Manufacturer";"EAN13";"Image URLs (x,y,z...)"',
  '87;1;"Conjunto mueble de baño Royo Easy";"13";"C0071197";"Royo Group";"8414623313881";"https://cdn.example.com/easy.jpg"',
]
const LOCALISED = [
  {
    language: 'Spanish',
    header:
      '"Id del Producto";"Referencia del Producto";"Atributo (Nombre:Tipo:Posicion)*";"Valor (Valor:Posicion)*";"Ref proveedor";"Referencia";"EAN13";"URLs de las imagenes(x,y,z...)"',
    row: (size: string, code: string, ean: string, image: string) =>
      `87;"";"Medida:select:0,Acabado:select:1";"${size}:0,Nogal arenado:1";"";"${code}";"${ean}";"${image}"`,
  },
  {
    language: 'French',
    header:
      '"ID produit*";"Attribut (Nom:Type:Position)*";"Valeur (Valeur:Position)*";"Référence";"EAN13";"Image URLs (x,y,z...)"',
    row: (size: string, code: string, ean: string, image: string) =>
      `87;"Medida:select:0,Acabado:select:1";"${size}:0,Nogal arenado:1";"${code}";"${ean}";"${image}"`,
  },
]

describe.each(LOCALISED)(
  'PrestaShop: a combinations file headed in $language',
  ({ language, header, row }) => {
    it('is read with its products file: each combination a SKU with its options and its own codes', async () => {
      const products = join(scratch, `products-${language}.csv`)
      const combinations = join(scratch, `combinations-${language}.csv`)
      await writeFile(products, `${PRODUCTS.join('\n')}\n`)
      const rows = [
        row('80 cm', 'C0071203', '8414623313942', ''),
        row('100 cm', 'C0072028', '8414623335746', 'https://cdn.example.com/easy-100.jpg'),
      ]
      await writeFile(combinations, `${[header, ...rows].join('\n')}\n`)
      const out = join(scratch, `localised-${language}.json`)
      const run = await runCli(['convert', products, out, '--combinations', combinations])
      expect(run.stderr).toBe('')
      expect(run.stdout).toContain('read as a PrestaShop product import: 1 product, 2 variants')
      const { skus } = JSON.parse(await readFile(out, 'utf8')) as { skus: Named[] }
      expect(skus).toEqual([
        expect.objectContaining({
          productName: 'Conjunto mueble de baño Royo Easy – 80 cm / Nogal arenado',
          barcode: '8414623313942',
          brand: 'Royo Group',
          productImage: 'https://cdn.example.com/easy.jpg',
          options: { Medida: '80 cm', Acabado: 'Nogal arenado' },
        }),
        expect.objectContaining({
          productName: 'Conjunto mueble de baño Royo Easy – 100 cm / Nogal arenado',
          barcode: '8414623335746',
          productImage: 'https://cdn.example.com/easy-100.jpg',
        }),
      ])
    })

    // The real Spanish pair's validate said "shop ids (column "Product ID") on more than one row"
    // of every product's combinations: they name their product by its ID, by design.
    it('its combinations are told apart by their values: only the same values twice are said', async () => {
      const products = join(scratch, `products-ids-${language}.csv`)
      const combinations = join(scratch, `combinations-ids-${language}.csv`)
      await writeFile(products, `${PRODUCTS.join('\n')}\n`)
      const rows = [
        row('80 cm', 'C0071203', '8414623313942', ''),
        row('100 cm', 'C0072028', '8414623335746', ''),
        row('100 cm', 'C0072029', '8414623335753', ''),
      ]
      await writeFile(combinations, `${[header, ...rows].join('\n')}\n`)
      const run = await runCli(['validate', products, '--combinations', combinations])
      expect(run.stdout).toContain(
        `shop ids (column "Product ID" with each combination's values) on more than one row (one product listed twice? nothing is held for it):\n  shop id 87 / 100 cm / Nogal arenado is on ${combinations} lines 3, 4\n`,
      )
      expect(run.stdout).not.toContain('shop id 87 / 80 cm')
    })
  },
)

describe('PrestaShop: a Spanish combination naming its product by reference', () => {
  it('is read as that product’s variant ("Referencia del Producto", no "Id del Producto")', async () => {
    const products = join(scratch, 'products-by-reference.csv')
    const combinations = join(scratch, 'combinations-by-reference.csv')
    await writeFile(products, `${PRODUCTS.join('\n')}\n`)
    await writeFile(
      combinations,
      [
        LOCALISED[0]!.header,
        '"";"C0071197";"Medida:select:0";"60 cm:0";"";"C0071198";"8414623313898";""',
      ].join('\n'),
    )
    const out = join(scratch, 'by-reference.json')
    const run = await runCli(['convert', products, out, '--combinations', combinations])
    expect(run.stderr).toBe('')
    const { skus } = JSON.parse(await readFile(out, 'utf8')) as { skus: Named[] }
    expect(skus).toEqual([
      expect.objectContaining({
        productName: 'Conjunto mueble de baño Royo Easy – 60 cm',
        barcode: '8414623313898',
        options: { Medida: '60 cm' },
      }),
    ])
  })
})

describe('PrestaShop: the products file alone', () => {
  it('every product is a SKU, with its category and its first picture', async () => {
    const out = join(scratch, 'products-alone.json')
    const run = await runCli(['convert', `${REAL}/prestashop-9.1-products-import.csv`, out])
    expect(run.stdout).toContain('read as a PrestaShop product import: 7 products, 0 variants')
    expect(run.stdout).toContain(
      'Product image: 1 cell of several images: the first one kept (“http://localhost/prestashop/img/p/1/5/15.jpg,http://localhost/prestashop/img/p/2/3/23.jpg” → “http://localhost/prestashop/img/p/1/5/15.jpg”), line 2',
    )
    const { skus } = JSON.parse(await readFile(out, 'utf8')) as { skus: Sku[] }
    expect(skus.map((sku) => [sku.productName, sku.category])).toEqual([
      ['iPod Nano', 'iPods'],
      ['iPod shuffle', 'iPods'],
      ['MacBook Air', 'Laptops'],
      ['MacBook', 'Laptops'],
      ['iPod touch', 'iPods'],
      ['Belkin Leather Folio for iPod nano - Black / Chocolate', 'accessories'],
      ['Shure SE210 Sound-Isolating Earphones for iPod and iPhone', 'accessories'],
    ])
  })

  it('two files that are not PrestaShop’s pair are refused, naming both', async () => {
    const run = await runCli([
      'validate',
      `${REAL}/prestashop-9.1-products-import.csv`,
      '--combinations',
      `${REAL}/thirtybees-products-import.csv`,
    ])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(
      `Neither ${REAL}/prestashop-9.1-products-import.csv nor ${REAL}/thirtybees-products-import.csv is PrestaShop’s combinations file`,
    )
  })
})
