import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fileKind, SNIFF_BYTES } from '#shared/sheet/file-kind.ts'
import { readHead, readResults } from '#renderer/features/import/read-sheet.ts'
import { automaticMapping } from '#shared/sheet/mapping.ts'
import { productLayout } from '#shared/sheet/products.ts'
import type { RowResult } from '#shared/sheet/types.ts'

// The import's worker reads a Merchant Center XML feed with the CLI's reader (xml-feed.ts), told
// by its name or its first bytes, into the rows a sheet gives: the mapping screen's samples and the
// dry run's results come from the same code a CSV's do.

const REAL = join(import.meta.dirname, '../../fixtures/sheets/exports/real')
const feed = (name: string, as = name) => new File([readFileSync(join(REAL, name))], as)

const kindOf = async (file: File) =>
  fileKind(file.name, new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer()))

describe('the import’s reader and a Merchant Center XML feed', () => {
  it('is told by its .xml name, or by <?xml / <feed at its start whatever its name', async () => {
    expect(await kindOf(feed('google-merchant-example-feed.rss.xml'))).toBe('xml')
    expect(await kindOf(feed('google-merchant-example-feed.atom.xml', 'feed.txt'))).toBe('xml')
    // Magento's feed has no declaration: it starts at <feed.
    expect(await kindOf(feed('google-merchant-magento-atom-feed.xml', 'export'))).toBe('xml')
    expect(await kindOf(new File(['  \n<rss version="2.0">'], 'feed'))).toBe('xml')
    expect(await kindOf(new File(['id,title\n1,<b>Aviator</b>\n'], 'items'))).toBe('csv')
  })

  it('gives the mapping screen its elements as headers and its first items as samples, and the dry run every item', async () => {
    const file = feed('google-merchant-example-feed.rss.xml')
    const head = await readHead(file, 'xml', 2)
    expect(head.headers.slice(0, 4)).toEqual(['title', 'link', 'description', 'id'])
    expect(head.rows.map((cells) => cells[3])).toEqual(['TV_123456', 'DVD-0564738'])

    const layout = productLayout(head.headers)
    const results: RowResult[] = []
    const read = await readResults(
      file,
      'xml',
      automaticMapping(head.headers, { structural: layout.structural }),
      new AbortController().signal,
      (stretch) => {
        results.push(...stretch)
      },
    )
    expect(read.products).toMatchObject({ format: 'merchant-center', products: 5, variants: 2 })
    expect(read.progress).toMatchObject({ rows: 6, bytes: file.size, total: file.size })
    expect(results.map((result) => result.sku.productName)).toHaveLength(6)
    expect(results[3]!.sku).toMatchObject({
      productName: 'Roma Cotton Rich Bootcut Jeans with Belt - Size 8 Standard',
      brand: 'M&S',
      options: { color: 'Navy', size: '8 Standard' },
    })
  })
})
