import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { matchColumns } from '#shared/sheet/columns.ts'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { decodeText } from '#shared/sheet/decode.ts'
import { matchOptionsOf, productLayout } from '#shared/sheet/products.ts'
import { readAsText, skippedText } from '#shared/sheet/reading-words.ts'
import { readSheet } from '#shared/sheet/rows.ts'
import { WOOCOMMERCE_EXPORT_HEADERS, WOOCOMMERCE_HEADERS } from '#shared/sheet/woocommerce-headers.ts'

/**
 * WooCommerce exports in the shop's language (woocommerce-language.ts): WooCommerce's own sample
 * with its header row in Brazilian Portuguese and in French, as WooCommerce's translations write it
 * (test/fixtures/sheets/exports/real/SOURCES.md), read exactly as the English one is.
 */

const REAL = join(import.meta.dirname, '../../fixtures/sheets/exports/real')
const sheetOf = (name: string) => parseCsvText(decodeText(new Uint8Array(readFileSync(join(REAL, name)))))

describe('a WooCommerce export in the shop’s language', () => {
  const english = readSheet(sheetOf('woocommerce-sample-products.csv'))

  it.each([
    ['woocommerce-sample-products.pt_BR.csv', 'Portuguese'],
    ['woocommerce-sample-products.fr_FR.csv', 'French'],
  ])(
    '%s: the same SKUs, variants and fields as the English export; the headers as written',
    (name, language) => {
      const sheet = sheetOf(name)
      const read = readSheet(sheet)
      expect(read.layout).toMatchObject({ format: 'woocommerce', language })
      expect(read.products).toEqual({ ...english.products, language })
      expect(readAsText(read.products)).toBe(
        `a WooCommerce product export (${language} headers): 19 products, 2 variants`,
      )
      expect(read.results.map((result) => result.sku)).toEqual(english.results.map((result) => result.sku))
      // Problems name the column as the file writes it ("Imagens", not "Images").
      const englishHeaders = sheetOf('woocommerce-sample-products.csv').headers
      const translated = (header: string) => (header ? sheet.headers[englishHeaders.indexOf(header)] : '')
      expect(read.results.map((result) => result.warnings)).toEqual(
        english.results.map((result) =>
          result.warnings.map((warning) => ({ ...warning, column: translated(warning.column) })),
        ),
      )
      // The same columns fill the same fields, each shown with its header as written.
      const matches = matchColumns(sheet.headers, matchOptionsOf(read.layout))
      const englishMatches = matchColumns(englishHeaders, matchOptionsOf(english.layout))
      expect(matches.map((match) => [match.path, match.structural])).toEqual(
        englishMatches.map((match) => [match.path, match.structural]),
      )
      expect(matches.map((match) => match.header)).toEqual(sheet.headers)
    },
  )

  it('says what a translated header was read as, and leaves the words it shows as written', () => {
    const { headers } = sheetOf('woocommerce-sample-products.pt_BR.csv')
    const matches = matchColumns(headers, matchOptionsOf(productLayout(headers)))
    const byHeader = (header: string) => matches.find((match) => match.header === header)!
    expect(byHeader('Nome')).toMatchObject({
      path: 'productName',
      why: '“Nome” is “Name” in English; “name”, a usual word for Product name',
    })
    expect(byHeader('Imagens')).toMatchObject({ path: 'productImage' })
    expect(byHeader('Publicado')).toMatchObject({ path: 'isActive' })
    expect(byHeader('Categorias')).toMatchObject({ path: 'category' })
    expect(byHeader('Peso (lbs)')).toMatchObject({
      structural: true,
      why: 'The shipping package’s size or weight, not the product’s',
    })
    expect(byHeader('Ascendente')).toMatchObject({ structural: true })
    expect(byHeader('Valores do atributo 2')).toMatchObject({ structural: true })
  })

  it('links a variation to its parent by `id:` and by SKU under translated headers, and skips what is no physical product', () => {
    const csv = [
      'ID,Tipo,REF,Nome,Publicado,Ascendente,"Nome do atributo 1","Valores do atributo 1",Imagens',
      '65,variable,TEE,Camiseta,1,,Cor,"Azul, Verde",https://example.com/tee.jpg',
      '66,variation,TEE-AZ,Camiseta - Azul,1,id:65,Cor,Azul,',
      '67,variation,TEE-VE,Camiseta - Verde,1,TEE,Cor,Verde,',
      '68,"simple, virtual",GIFT,Vale-presente,1,,,,',
      '69,external,EXT,Óculos noutro site,1,,,,',
    ].join('\n')
    const { results, products } = readSheet(parseCsvText(csv))
    expect(products).toMatchObject({
      format: 'woocommerce',
      language: 'Portuguese',
      products: 1,
      variants: 2,
      orphans: 0,
      skipped: { 'not-physical': 1, external: 1 },
    })
    expect(results.map((result) => [result.row, result.sku.productName, result.sku.productImage])).toEqual([
      [2, 'Camiseta - Azul', 'https://example.com/tee.jpg'],
      [3, 'Camiseta - Verde', 'https://example.com/tee.jpg'],
    ])
    expect(results.map((result) => (result.sku as { options?: unknown }).options)).toEqual([
      { Cor: 'Azul' },
      { Cor: 'Verde' },
    ])
    expect(skippedText(products)).toBe(
      '2 products skipped: 1 downloadable or virtual (not a physical product), 1 external (sold on another site)',
    )
  })

  it('tells each language of the table by its own headers, though languages share words (“Tipo”, “Publicado”)', () => {
    for (const [language, headers] of Object.entries(WOOCOMMERCE_HEADERS)) {
      // An export with every header in that language where it has one: the first translation
      // each placeholder filled as WooCommerce fills it.
      const written = WOOCOMMERCE_EXPORT_HEADERS.map((english) =>
        (headers[english]?.[0] ?? english).replace('%d', '1').replace('%s', 'kg'),
      )
      const layout = productLayout(written)
      expect(layout, language).toMatchObject({ format: 'woocommerce', language })
      expect(layout.readAs, language).toEqual(
        WOOCOMMERCE_EXPORT_HEADERS.map((english) => english.replace('%d', '1').replace('%s', 'kg')),
      )
    }
    expect(Object.keys(WOOCOMMERCE_HEADERS)).toEqual(
      expect.arrayContaining(['Portuguese', 'Spanish', 'French', 'German', 'Italian']),
    )
  })

  // Both as real shops' exports have them (a Russian shop's, a French one's; no licence to copy
  // them here): only some columns exported, no Parent; the type column's header left blank.
  it('reads an export of some columns, without Parent, in a language WooCommerce writes', () => {
    const csv = [
      'ID,Тип,Артикул,Имя,Опубликован,Категории,Изображения',
      '40,simple,,Комбинезон,1,Женская одежда,https://example.com/40.jpg',
      '41,simple,,Платье,1,Женская одежда,https://example.com/41.jpg',
    ].join('\n')
    const { results, products, layout } = readSheet(parseCsvText(csv))
    expect(layout).toMatchObject({ format: 'woocommerce', language: 'Russian' })
    expect(products).toMatchObject({ products: 2, variants: 0 })
    expect(results.map((result) => [result.row, result.sku.productName, result.sku.category])).toEqual([
      [1, 'Комбинезон', 'Женская одежда'],
      [2, 'Платье', 'Женская одежда'],
    ])
    // In English, "ID" and "Type" without "Parent" may be any sheet's.
    expect(productLayout(['ID', 'Type', 'SKU', 'Name']).format).toBe('plain')
  })

  it('takes a blank header between two the exporter writes one apart for the one between them', () => {
    const csv = [
      'ID,  ,UGS,Nom,Publié,Parent,Nom de l’attribut 1,Valeur(s) de l’attribut 1,Images',
      '10,variable,ENS,Ensemble,1,,Taille,"06 ans, 08 ans",https://example.com/ens.jpg',
      '11,variation,,Ensemble - Taille 06 ans,1,ENS,Taille,06 ans,',
      '12,variation,,Ensemble - Taille 08 ans,1,ENS,Taille,08 ans,',
    ].join('\n')
    const { results, products, layout } = readSheet(parseCsvText(csv))
    expect(layout).toMatchObject({ format: 'woocommerce', language: 'French' })
    expect(layout.readAs?.slice(0, 4)).toEqual(['ID', 'Type', 'SKU', 'Name'])
    expect(products).toMatchObject({ products: 1, variants: 2 })
    expect(results.map((result) => [result.sku.productName, result.sku.productImage])).toEqual([
      ['Ensemble - Taille 06 ans', 'https://example.com/ens.jpg'],
      ['Ensemble - Taille 08 ans', 'https://example.com/ens.jpg'],
    ])
    // Only there: a blank header elsewhere stays blank.
    expect(productLayout(['ID', 'Type', 'UGS', 'Nom', 'Publié', '', 'Parent']).readAs?.[5]).toBe('')
  })

  it('a sheet with a few words WooCommerce also uses is no WooCommerce export', () => {
    const layout = productLayout(['Nome', 'Preço', 'Descrição', 'Categorias', 'Código de barras'])
    expect(layout.format).toBe('plain')
    expect(layout.readAs).toBeUndefined()
    // An English export is read as it is.
    expect(productLayout(sheetOf('woocommerce-sample-products.csv').headers)).toMatchObject({
      format: 'woocommerce',
    })
    expect(productLayout(sheetOf('woocommerce-sample-products.csv').headers).language).toBeUndefined()
  })

  it('a meta key and a unit keep their case; spaces and apostrophes as a spreadsheet changes them still match', () => {
    const layout = productLayout([
      'Tipo',
      'Ascendente',
      'REF',
      'Nome',
      'Metadado: _Wpcom_Key',
      'Peso (KG)',
      'nome  DO atributo 1',
    ])
    expect(layout.readAs).toEqual([
      'Type',
      'Parent',
      'SKU',
      'Name',
      'Meta: _Wpcom_Key',
      'Weight (KG)',
      'Attribute 1 name',
    ])
    expect(
      productLayout(['Type', 'UGS', 'Nom', 'Parent', 'Nom de l’attribut 1', 'En\u00a0stock ?']).readAs,
    ).toEqual(['Type', 'SKU', 'Name', 'Parent', 'Attribute 1 name', 'In stock?'])
  })
})
