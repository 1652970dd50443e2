import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SheetSummary } from '#cli/sheet-report.ts'
import { runCli } from './run-cli.ts'

/**
 * Google Merchant Center XML feeds written by others (test/fixtures/sheets/exports/real, sources
 * in SOURCES.md there), through the CLI's `validate` and `convert` as a catalog manager runs them:
 * the items, their SKUs, the jeans' variants, the columns mapped, the notes.
 */

const REAL = 'test/fixtures/sheets/exports/real'
const RSS = `${REAL}/google-merchant-example-feed.rss.xml`
const ATOM = `${REAL}/google-merchant-example-feed.atom.xml`
const MAGENTO = `${REAL}/google-merchant-magento-atom-feed.xml`

let scratch = ''
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'catalog-desk-feeds-'))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

interface Sku {
  productName?: string
  barcode?: string
  brand?: string
  productImage?: string
  actionUrl?: string
  category?: string
  subCategory?: string
  options?: Record<string, string>
}

async function validate(file: string): Promise<SheetSummary> {
  const run = await runCli(['validate', '--json', file])
  expect(run.stderr).toBe('')
  return JSON.parse(run.stdout) as SheetSummary
}

async function convert(file: string, options: string[] = []): Promise<Sku[]> {
  const out = join(scratch, `${file.split('/').pop()}.json`)
  const run = await runCli(['convert', file, out, ...options])
  expect(run.stderr).toBe('')
  // Every SKU valid: the exit status is 1 only for those a push would hold back, said last.
  const written = run.stdout.trimEnd().split('\n').at(-1)!
  expect(written).toMatch(/^wrote /)
  expect(run.code).toBe(written.includes('held back') ? 1 : 0)
  return (JSON.parse(await readFile(out, 'utf8')) as { skus: Sku[] }).skus
}

/** What a catalog manager looks at of each SKU. */
const seen = (sku: Sku) => ({
  productName: sku.productName,
  barcode: sku.barcode,
  brand: sku.brand,
  productImage: sku.productImage,
  actionUrl: sku.actionUrl,
  category: sku.category,
  subCategory: sku.subCategory,
  options: sku.options,
})

/** Google's example feed, the same six items in RSS and in Atom. */
const EXAMPLE_SKUS = [
  {
    productName: 'LG Flatron M2262D 22" Full HD LCD TV',
    barcode: '8808992787426',
    brand: 'LG',
    productImage: 'http://images.example.com/TV_123456.png',
    actionUrl: 'http://www.example.com/electronics/tv/LGM2262D.html',
    category: 'Consumer Electronics',
    subCategory: 'Flat Panel TVs',
    options: undefined,
  },
  {
    productName: 'Merlin: Series 3 - Volume 2 - 3 DVD Box set',
    barcode: '5030697019233',
    brand: 'BBC',
    productImage: 'http://images.example.com/DVD-0564738?size=large&format=PNG',
    actionUrl: 'http://www.example.com/media/dvd/?sku=384616&src=gshopping&lang=en',
    // The shop's product_type, not Google's "Media > DVDs & Movies > Television Shows".
    category: 'DVDs & Movies',
    subCategory: 'Fantasy Drama',
    options: undefined,
  },
  {
    productName: 'Dior Capture R60/80 XP Restoring Wrinkle Creme Rich Texture 30ml',
    barcode: '3348900839731',
    brand: 'Dior',
    productImage: 'http://images.example.com/PFM654321_1.jpg',
    actionUrl: 'http://www.example.com/perfumes/product?Dior%20Capture%20R6080%20XP',
    category: 'Health & Beauty',
    subCategory: 'Lotion',
    options: undefined,
  },
  {
    productName: 'Roma Cotton Rich Bootcut Jeans with Belt - Size 8 Standard',
    // No gtin: the mpn (B003J5F5EY) is the maker's code, never the barcode.
    barcode: undefined,
    brand: 'M&S',
    productImage: 'http://images.example.com/CLO-29473856-front.jpg',
    actionUrl: 'http://www.example.com/clothing/women/Roma-Cotton-Bootcut-Jeans/?extid=CLO-29473856',
    category: "Women's Clothing",
    subCategory: 'Bootcut Jeans',
    options: { color: 'Navy', size: '8 Standard' },
  },
  {
    productName: 'Roma Cotton Rich Bootcut Jeans with Belt - Size 8 Tall',
    barcode: undefined,
    brand: 'M&S',
    productImage: 'http://images.example.com/CLO-29473856-front.jpg',
    actionUrl: 'http://www.example.com/clothing/women/Roma-Cotton-Bootcut-Jeans/?extid=CLO-29473856',
    category: "Women's Clothing",
    subCategory: 'Bootcut Jeans',
    options: { color: 'Navy', size: '8 Tall' },
  },
  {
    // Its title names neither its colour nor its size.
    productName: 'Tenn Cool Flow Ladies Long Sleeved Cycle Jersey – Black/Red/White / M',
    barcode: '5060155240282',
    brand: undefined,
    productImage: 'http://images.example.com/CLO-1029384.jpg',
    actionUrl: 'http://www.example.com/clothing/sports/product?id=CLO1029384&src=gshopping&popup=false',
    category: 'Sporting Goods',
    subCategory: 'Bicycle Jerseys',
    // One product, not a group's variant: its colour and size still name it.
    options: { color: 'Black/Red/White', size: 'M' },
  },
]

describe('Google Merchant Center XML feeds through the CLI', () => {
  it('RSS 2.0: six items, five products (the jeans two variants of one), each column where a catalog manager would put it, with the notes', async () => {
    const summary = await validate(RSS)
    expect(summary).toMatchObject({ kind: 'xml', items: 6, valid: 6, invalid: 0, sendable: 4, heldBack: 2 })
    // The jeans have no gtin: held back for it, not given their mpn.
    expect(summary.holds).toEqual([
      { row: 4, reason: 'identity', message: 'No barcode' },
      { row: 5, reason: 'identity', message: 'No barcode' },
    ])
    // Every item's g:id is its own: no shop id repeats.
    expect(summary.repeatedShopIds).toEqual([])
    expect(summary.notes.slice(0, 3)).toEqual([
      'read as an XML feed (RSS 2.0): 6 items, each read as a row',
      "the feed's <shipping> elements hold elements of their own (country, service, price), which no field takes: they are not read",
      'read as a Google Merchant Center feed: 5 products, 2 variants',
    ])
    expect(summary.notes).toContain(
      'column "mpn" is a shop\'s own code, not a barcode, and is not read; if it is the barcode, say so with --mapping ({"columns": {"mpn": "barcode"}})',
    )
    // Google's taxonomy fills nothing, and says why; the shop's product_type gives the category.
    expect(summary.notes.filter((note) => note.includes('"google_product_category"'))).toEqual([
      expect.stringMatching(
        /^column "google_product_category" is read by the file's format, not as a field\W+the taxonomy of Google Shopping, not the platform’s category$/i,
      ),
    ])

    const skus = await convert(RSS)
    expect(skus.map(seen)).toEqual(EXAMPLE_SKUS)
    expect(skus.map((sku) => sku.barcode)).not.toContain('B003J5F5EY')
    expect(skus.map((sku) => sku.barcode)).not.toContain('M2262D-PC')
  })

  it('Atom: the same feed gives the same SKUs (<link href> the action link, <summary> the description)', async () => {
    const summary = await validate(ATOM)
    expect(summary).toMatchObject({ kind: 'xml', items: 6, valid: 6, sendable: 4 })
    expect(summary.notes[0]).toBe('read as an XML feed (Atom): 6 items, each read as a row')
    expect(summary.notes).toContain('read as a Google Merchant Center feed: 5 products, 2 variants')
    expect((await convert(ATOM)).map(seen)).toEqual(EXAMPLE_SKUS)
  })

  it('a Magento feed with no XML declaration and every field a g: element, recognised by its content whatever its name', async () => {
    const file = join(scratch, 'magento-feed.data')
    await copyFile(MAGENTO, file)
    const summary = await validate(file)
    // Held back: it has no category (below).
    expect(summary).toMatchObject({ kind: 'xml', items: 1, valid: 1, sendable: 0 })
    expect(summary.notes).toContain('read as a Google Merchant Center feed: 1 product, 0 variants')
    expect(summary.notes).toContain(
      'Category: 1 cell holding a category’s number in the shop, not its name, read as none (“2962” → empty), item 1',
    )
    const [sku] = await convert(MAGENTO)
    expect(seen(sku!)).toEqual({
      productName: 'Weber Smokey Joe Original Black BBQ',
      // Its upc and gtin are the same number; the mpn (1121004) is not the barcode.
      barcode: '000123456789',
      brand: 'Weber',
      productImage: 'https://mysite.co.uk/media/catalog/product/s/m/smokey_joe.jpg',
      actionUrl: 'https://mysite.co.uk/catalog/product/view/id/195/s/weber-smokey-joe-premium-bbq/',
      // product_type, the shop's own, holds the number of one of Google's categories (2962), no
      // name; google_product_category fills nothing.
      category: undefined,
      subCategory: undefined,
      options: undefined,
    })
  })

  // A real pharmacy's feed of 60 items has Google's taxonomy and no product_type: every SKU was held
  // back for want of a category, and nothing said that google_product_category could give one.
  it('Google’s category, the only one a feed has: offered with the mapping that takes it, never taken unasked', async () => {
    const feed = join(scratch, 'pharmacy.xml')
    await writeFile(
      feed,
      `<?xml version="1.0"?>
<rss xmlns:g="http://base.google.com/ns/1.0" version="2.0"><channel><title>Pharmacy</title>
<item><g:id>1</g:id><g:title>Vitamin C 1000 mg</g:title><g:gtin>4006381333931</g:gtin>
<g:google_product_category>Health &amp; Beauty &gt; Health Care</g:google_product_category></item>
</channel></rss>
`,
    )
    const run = await runCli(['validate', feed])
    expect(run.stdout).toContain(
      'note: column "google_product_category" is read by the file\'s format, not as a field. The taxonomy of Google Shopping, not the platform’s category; no other column fills Category: to take it for that, say so with --mapping ({"columns": {"google_product_category": "category"}})',
    )
    expect(run.stdout).toContain('held back: category is empty')
    const mapping = join(scratch, 'google-category.json')
    await writeFile(
      mapping,
      JSON.stringify({ format: 'catalog-desk-mapping/1', columns: { google_product_category: 'category' } }),
    )
    const skus = await convert(feed, ['--mapping', mapping])
    expect(skus[0]).toMatchObject({ category: 'Health & Beauty', subCategory: 'Health Care' })
    // Nor when a fixed value fills the category, or the shop's own product_type does.
    const fixed = join(scratch, 'fixed-category.json')
    await writeFile(
      fixed,
      JSON.stringify({ format: 'catalog-desk-mapping/1', constants: { category: 'Health' } }),
    )
    expect((await runCli(['validate', feed, '--mapping', fixed])).stdout).not.toContain(
      'no other column fills Category',
    )
    expect((await runCli(['validate', RSS])).stdout).not.toContain('no other column fills Category')
  })

  // WooCommerce's sample data as WordPress exports it (a theme's repository carries it): read as a
  // feed, its 47 items gave 47 SKUs, pictures and grouped products among them, the categories joined.
  it('a WordPress export (RSS with WordPress’s own elements) is refused, pointing to WooCommerce’s CSV export', async () => {
    const wxr = join(scratch, 'sample_products.xml')
    await writeFile(
      wxr,
      `<?xml version="1.0" encoding="UTF-8"?>
<!-- generator="WordPress/5.0.3" -->
<rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/" xmlns:content="http://purl.org/rss/1.0/modules/content/">
<channel><title>WooCommerce Demo Store</title>
<item><title>V-Neck T-Shirt</title><wp:post_type>product</wp:post_type></item>
<item><title>vneck-tee-2.jpg</title><wp:post_type>attachment</wp:post_type></item>
</channel></rss>
`,
    )
    const run = await runCli(['validate', wxr])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(
      'It is a WordPress export (Tools › Export), not a product feed: its items are every post, page, picture and product of the site. Export the products from WooCommerce instead (Products › Export, a CSV file), and import that.',
    )
  })

  // A tryout's real feed (2,200 shoes): laid out as Google's own example, with plain <title> and
  // <link>, neither item_group_id nor google_product_category, each size an item of its own under
  // one title. It was read as a plain RSS feed: "size" ignored, eight SKUs of one name.
  it('a feed with Google’s attribute names but no item_group_id: read as Merchant Center, each size a SKU named by it', async () => {
    const item = (id: string, size: string) =>
      `<item><g:id>${id}</g:id><title>Nova Barefoot Sneaker Women</title><link>https://shop.example.com/nova</link><g:price>99.99 USD</g:price><g:availability>in stock</g:availability><g:condition>new</g:condition><g:image_link>https://shop.example.com/nova.jpg</g:image_link><g:size>${size}</g:size></item>`
    const feed = join(scratch, 'shoes.xml')
    await writeFile(
      feed,
      `<?xml version='1.0' encoding='utf-8'?>\n<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel><title>Feed</title>${item('a1', 'US 5 | EU 36')}${item('a2', 'US 6 | EU 37')}<item><g:id>b1</g:id><title>Nova Sneaker Men</title><link>https://shop.example.com/nova-men</link><g:availability>in stock</g:availability><g:image_link>https://shop.example.com/men.jpg</g:image_link></item></channel></rss>\n`,
    )
    const summary = await validate(feed)
    expect(summary.notes).toContain('read as a Google Merchant Center feed: 3 products, 0 variants')
    expect(summary.notes.join('\n')).not.toMatch(/column "size" matches no field/)
    expect((await convert(feed)).map((sku) => [sku.productName, sku.options])).toEqual([
      ['Nova Barefoot Sneaker Women – US 5 | EU 36', { size: 'US 5 | EU 36' }],
      ['Nova Barefoot Sneaker Women – US 6 | EU 37', { size: 'US 6 | EU 37' }],
      ['Nova Sneaker Men', undefined],
    ])
  })

  // A tryout's real feed (a Brazilian hair and make-up shop's) gave item_group_id its category's
  // slug: "4 products, 107 variants", where each item is a product of its own. Google asks each
  // variant of a group for a colour, size or another attribute that tells it apart.
  it('items sharing an item_group_id but no colour or size are products of their own', async () => {
    const item = (id: string, title: string, colour = '') =>
      `<item><g:id>${id}</g:id><g:title>${title}</g:title><g:item_group_id>maquiagem-premium</g:item_group_id><g:image_link>https://shop.example.com/${id}.jpg</g:image_link>${colour && `<g:color>${colour}</g:color>`}</item>`
    const feed = join(scratch, 'slugs.xml')
    await writeFile(
      feed,
      `<?xml version='1.0' encoding='utf-8'?>\n<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel><title>Feed</title>${item('bt-d30', 'BT Skin D30 Base')}${item('bt-d40', 'BT Skin D40 Base')}${item('lip-1', 'Batom Matte', 'Rosa')}${item('lip-2', 'Batom Matte', 'Vinho')}</channel></rss>\n`,
    )
    const summary = await validate(feed)
    expect(summary.notes).toContain('read as a Google Merchant Center feed: 3 products, 2 variants')
  })

  it('XML that is no feed, or a feed with a DOCTYPE, is refused with exit 2 and the reason', async () => {
    const other = join(scratch, 'catalog.xml')
    await writeFile(other, '<?xml version="1.0"?>\n<products><product/></products>\n')
    const run = await runCli(['validate', other])
    expect(run).toMatchObject({ code: 2, stdout: '' })
    expect(run.stderr).toBe(
      `catalog-desk: Cannot read ${other}: It is XML, but not a product feed: its root element is <products>, where a Google Merchant Center feed has <rss> (RSS 2.0) or <feed> (Atom).\n`,
    )
    const doctype = join(scratch, 'entities.xml')
    await writeFile(
      doctype,
      '<?xml version="1.0"?>\n<!DOCTYPE rss [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<rss><channel><item><title>&x;</title></item></channel></rss>\n',
    )
    const refused = await runCli(['convert', doctype, join(scratch, 'out.json')])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(
      /^catalog-desk: Cannot read .*entities\.xml: The feed declares a DOCTYPE \(line 2\)/,
    )
  })
})
