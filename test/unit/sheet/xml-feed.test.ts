import { describe, expect, it } from 'vitest'
import { SheetFileError } from '#shared/sheet/errors.ts'
import { streamXmlFeed } from '#shared/sheet/xml-feed.ts'

/** A feed read whole, as the CLI and the importer get it: the header, every row, the notes. */
async function read(input: string | Blob, chunkBytes?: number) {
  let headers: string[] = []
  let headerCalls = 0
  const rows: string[][] = []
  const { rows: count, notes } = await streamXmlFeed(
    input,
    {
      onHeader: (cells) => {
        headers = cells
        headerCalls++
      },
      onRows: async (cells) => {
        // Awaited: the reader holds the file back while a slow consumer works.
        await Promise.resolve()
        expect(headers.length).toBeGreaterThan(0)
        rows.push(...cells)
      },
    },
    chunkBytes === undefined ? {} : { chunkBytes },
  )
  expect(headerCalls).toBe(1)
  expect(count).toBe(rows.length)
  const items = rows.map((cells) => Object.fromEntries(headers.map((header, i) => [header, cells[i]])))
  return { headers, rows, items, notes }
}

/** The reader's refusal, as the CLI and the importer show it. */
async function refusal(input: string | Blob, chunkBytes?: number): Promise<SheetFileError> {
  const error = await read(input, chunkBytes).then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(SheetFileError)
  return error as SheetFileError
}

const RSS = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">
  <channel>
    <title>Northwind Optics</title>
    <link>https://shop.example.com</link>
    <item>
      <g:id>SOL-1-BLK</g:id>
      <title>Plain title, overruled</title>
      <g:title>Aviator &amp; Case – Black</g:title>
      <link>https://shop.example.com/aviator?variant=1</link>
      <g:image_link>https://shop.example.com/aviator-black.jpg</g:image_link>
      <g:additional_image_link>https://shop.example.com/aviator-side.jpg</g:additional_image_link>
      <g:additional_image_link>https://shop.example.com/aviator-case.jpg</g:additional_image_link>
      <g:gtin>00012345678905</g:gtin>
      <g:item_group_id>SOL-1</g:item_group_id>
      <g:color>Black</g:color>
      <g:shipping>
        <g:country>US</g:country>
        <g:price>4.95 USD</g:price>
      </g:shipping>
    </item>
    <item>
      <g:id>SOL-1-GLD</g:id>
      <title>Aviator – Gold</title>
      <g:size>58</g:size>
      <g:item_group_id>SOL-1</g:item_group_id>
      <g:color>Gold</g:color>
    </item>
  </channel>
</rss>
`

describe('streamXmlFeed', () => {
  it('RSS 2.0: each item a row, its elements the columns by local name; g:title and title are one column, the g: one wins; repeats joined with commas', async () => {
    const { headers, items, notes } = await read(RSS)
    expect(headers).toEqual([
      'id',
      'title',
      'link',
      'image_link',
      'additional_image_link',
      'gtin',
      'item_group_id',
      'color',
      'size',
    ])
    expect(items[0]).toEqual({
      id: 'SOL-1-BLK',
      title: 'Aviator & Case – Black',
      link: 'https://shop.example.com/aviator?variant=1',
      image_link: 'https://shop.example.com/aviator-black.jpg',
      additional_image_link:
        'https://shop.example.com/aviator-side.jpg,https://shop.example.com/aviator-case.jpg',
      gtin: '00012345678905',
      item_group_id: 'SOL-1',
      color: 'Black',
      size: '',
    })
    // An element the first item lacks still has its column, and the second item its cells.
    expect(items[1]).toMatchObject({ id: 'SOL-1-GLD', title: 'Aviator – Gold', size: '58', link: '' })
    // The channel's own title and link are no item's.
    expect(items.map((item) => item.title)).not.toContain('Northwind Optics')
    expect(notes).toEqual([
      'read as an XML feed (RSS 2.0): 2 items, each read as a row',
      "the feed's <shipping> elements hold elements of their own (country, price), which no field takes: they are not read",
    ])
  })

  it('gives the same rows a few bytes at a time as whole, from a Blob as from text', async () => {
    const whole = await read(RSS)
    expect(await read(new Blob([RSS]), 7)).toEqual(whole)
    expect(await read(RSS, 3)).toEqual(whole)
  })

  it('Atom: <link href> is link (not rel="self"), summary is description, and a g: element without its prefix declared is still Google’s', async () => {
    const atom = `<feed xmlns="http://www.w3.org/2005/Atom" xmlns:g="http://base.google.com/ns/1.0">
  <title>Shop</title>
  <link rel="self" href="https://shop.example.com/feed.xml"/>
  <entry>
    <title type="text">Round Frame</title>
    <link rel="enclosure" href="https://shop.example.com/round.pdf"/>
    <link href="https://shop.example.com/round"/>
    <summary>Acetate, 49 mm</summary>
    <g:id>OPT-9</g:id>
  </entry>
</feed>`
    const { items, notes } = await read(atom)
    expect(items).toEqual([
      {
        title: 'Round Frame',
        link: 'https://shop.example.com/round',
        description: 'Acetate, 49 mm',
        id: 'OPT-9',
      },
    ])
    expect(notes).toEqual(['read as an XML feed (Atom): 1 item, read as a row'])
    const undeclared = await read('<rss><channel><item><g:gtin>4006381333931</g:gtin></item></channel></rss>')
    expect(undeclared.items).toEqual([{ gtin: '4006381333931' }])
  })

  it('CDATA, comments, character references and leading white space before the declaration are read as a person means them', async () => {
    const feed = `\n\n<?xml version="1.0"?>
<!-- written by the shop's feed script -->
<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel>
<item>
  <!-- the title -->
  <title><![CDATA[Merlin & Arthur <Box set>]]></title>
  <g:product_type>Eyewear &gt; Sunglasses &#x2013; Kids</g:product_type>
  <g:brand>North<!-- mid-text -->wind</g:brand>
</item>
</channel></rss>`
    const { items } = await read(feed)
    expect(items).toEqual([
      { title: 'Merlin & Arthur <Box set>', product_type: 'Eyewear > Sunglasses – Kids', brand: 'Northwind' },
    ])
  })

  it('a feed without an XML declaration is read', async () => {
    const { items } = await read(
      '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:g="http://base.google.com/ns/1.0"><entry><g:id>1</g:id><g:summary>Kettle BBQ</g:summary></entry></feed>',
    )
    expect(items).toEqual([{ id: '1', description: 'Kettle BBQ' }])
  })

  it('refuses a DOCTYPE, an entity bomb’s or an external entity’s, before any row, naming its line', async () => {
    const laughs = `<?xml version="1.0"?>
<!DOCTYPE rss [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<rss><channel><item><title>&lol3;</title></item></channel></rss>`
    const bomb = await refusal(laughs)
    expect(bomb.code).toBe('xml-doctype')
    expect(bomb.message).toMatch(
      /^The feed declares a DOCTYPE \(line 6\)\..* it is refused\. Remove the <!DOCTYPE …> line\.$/,
    )
    const external = await refusal(
      '<?xml version="1.0"?>\n<!DOCTYPE rss SYSTEM "file:///etc/passwd">\n<rss><channel><item><title>x</title></item></channel></rss>',
    )
    expect(external.code).toBe('xml-doctype')
    // No row reached the consumer: the first pass refused it.
    let rows = 0
    await expect(
      streamXmlFeed(laughs, { onHeader: () => undefined, onRows: (cells) => void (rows += cells.length) }),
    ).rejects.toThrow(/DOCTYPE/)
    expect(rows).toBe(0)
  })

  it('an entity no DTD defines (&nbsp;) is not well-formed XML, said with its line', async () => {
    const error = await refusal(
      '<rss>\n<channel>\n<item><title>Aviator&nbsp;Gold</title></item></channel></rss>',
    )
    expect(error.code).toBe('not-xml')
    expect(error.message).toBe(
      "It is not well-formed XML: an entity XML does not define (line 3, in item 1). A feed may use only &amp; &lt; &gt; &quot; &apos; and numbered ones such as &#160;; HTML's, such as &nbsp; or &eacute;, are not XML's.",
    )
  })

  it('a tag never closed is said with the line the file ends on', async () => {
    const error = await refusal('<rss>\n<channel>\n<item><title>Aviator</title>\n</channel></rss>')
    expect(error.code).toBe('not-xml')
    expect(error.message).toMatch(/^It is not well-formed XML: unexpected close tag.*\(line 4\)\.$/)
  })

  // A tryout's real feed (a shop's hand-made RSS): "HAIR & BODY MIST" at line 321, said as "unclosed
  // tag: title (line 3428)", the file's end, since the parser reads everything to the next ";" as
  // the entity's name.
  it('an "&" that begins no entity is said where it is, whatever chunks the file comes in', async () => {
    const items = Array.from({ length: 40 }, (_, n) =>
      [
        '<item>',
        `  <g:id>perfume_${n + 1}</g:id>`,
        // Text in a CDATA section or a comment may hold a bare "&"; a reference is no bare "&".
        `  <description><![CDATA[Oud & musk]]></description><!-- R&D -->`,
        `  <title>${n === 25 ? 'Emotion ( HAIR & BODY MIST)' : 'Rose &amp; oud &#38; &#x26; amber'}</title>`,
        '</item>',
      ].join('\n'),
    )
    const feed = `\n\n<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">\n<channel>\n${items.join('\n')}\n</channel>\n</rss>\n`
    const line = 4 + 25 * 5 + 4
    expect(feed.split('\n')[line - 1]).toBe('  <title>Emotion ( HAIR & BODY MIST)</title>')
    for (const [input, chunkBytes] of [[feed], [feed, 7], [feed, 64], [new Blob([feed]), 100]] as const) {
      const error = await refusal(input, chunkBytes)
      expect(error.code).toBe('not-xml')
      expect(error.message).toBe(
        `It is not well-formed XML: an “&” that begins no entity (line ${line}, column 25: “& BODY MIST)”). Write it &amp;, as XML asks, or put the text in a CDATA section.`,
      )
    }
    // Without it, the same feed is read.
    expect((await read(feed.replace('HAIR & BODY', 'HAIR &amp; BODY'))).rows).toHaveLength(40)
  })

  // A tryout's feed cut short: one line of 500 KB, and "(line 2)" said nothing of where.
  it('a feed on one line is said with the column and the item where it goes wrong', async () => {
    const items = Array.from(
      { length: 30 },
      (_, n) => `<item><g:id>${n + 1}</g:id><title>Frame ${n + 1}</title></item>`,
    )
    const feed = `<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel>${items.join('')}`
    const error = await refusal(feed.slice(0, feed.lastIndexOf('<title>') + 12))
    expect(error.code).toBe('not-xml')
    expect(error.message).toMatch(
      /^It is not well-formed XML: unclosed tag: .* \(line 1, column \d{4}, in item 30\)\.$/,
    )
  })

  it('bounds: an element of more than 1 MB, and a CDATA section that never ends, are refused without holding the file', async () => {
    const long = 'x'.repeat(1024 * 1024 + 1)
    const huge = await refusal(
      `<rss><channel><item><g:id>1</g:id></item><item><title>${long}</title></item></channel></rss>`,
    )
    expect(huge.code).toBe('huge-cell')
    expect(huge.message).toMatch(
      /^An item's <title> \(line 1, column \d{7}, in item 2\) holds more than 1 MB of text; an element may hold at most 1 MB\.$/,
    )
    // 6 MB in one CDATA section: refused once 4 MB are held, without reading to the end.
    const open = new Blob([`<rss><channel><item><title><![CDATA[`, 'y'.repeat(6 * 1024 * 1024)])
    const unfinished = await refusal(open, 256 * 1024)
    expect(unfinished.code).toBe('huge-cell')
    expect(unfinished.message).toMatch(
      /^From line 1, column \d+, in item 1, more than 4 MB of the feed is one text, comment or tag/,
    )
  })

  it('RSS’s <channel> alone, without the <rss> around it, is read as the feed it is, and said so', async () => {
    // As a tryout's Farfetch feed was written: <channel> the root, its items Google's names unprefixed.
    const channel = RSS.replace(/<rss[^>]*>\n/, '')
      .replace('</rss>\n', '')
      .replace('<channel>', '<channel xmlns:g="http://base.google.com/ns/1.0">')
    const whole = await read(RSS)
    const { items, notes } = await read(channel)
    expect(items).toEqual(whole.items)
    expect(notes[0]).toBe(
      'read as an XML feed (RSS 2.0, its <channel> without the <rss> around it): 2 items, each read as a row',
    )
    const empty = await refusal('<channel><title>Shop</title></channel>')
    expect(empty.message).toBe(
      'It is an RSS 2.0 <channel> without a single <item>: there are no products in it.',
    )
  })

  it('refuses XML that is not a product feed, naming what it found', async () => {
    const other = await refusal('<?xml version="1.0"?><products><product><ean>1</ean></product></products>')
    expect(other).toMatchObject({
      code: 'not-a-feed',
      message:
        'It is XML, but not a product feed: its root element is <products>, where a Google Merchant Center feed has <rss> (RSS 2.0) or <feed> (Atom).',
    })
    const empty = await refusal('<rss version="2.0"><channel><title>Shop</title></channel></rss>')
    expect(empty.message).toBe(
      'It is an RSS 2.0 feed (<rss>) without a single <item> in its <channel>: there are no products in it.',
    )
    const atom = await refusal('<feed xmlns="http://www.w3.org/2005/Atom"><title>Shop</title></feed>')
    expect(atom.message).toBe(
      'It is an Atom feed (<feed>) without a single <entry>: there are no products in it.',
    )
  })

  it('an empty file, a CSV called .xml, and bytes that are not UTF-8 are each said plainly', async () => {
    expect((await refusal('  \n')).message).toBe('The file is empty.')
    expect((await refusal('id,title\n1,Aviator\n')).message).toBe(
      'It is not XML: it starts with "id,title", where XML starts with a tag (<).',
    )
    const latin1 = new Uint8Array([
      ...new TextEncoder().encode(
        '<?xml version="1.0" encoding="ISO-8859-1"?><rss><channel><item><title>Caf',
      ),
      0xe9,
      ...new TextEncoder().encode('</title></item></channel></rss>'),
    ])
    const notUtf8 = await refusal(new Blob([latin1]))
    expect(notUtf8.code).toBe('not-utf8')
    expect(notUtf8.message).toBe(
      'The file is not UTF-8 text. Have the feed written as UTF-8, or re-encode it as UTF-8. It says it is ISO-8859-1, which is not read.',
    )
  })

  it('stops when its signal is aborted, with the signal’s reason', async () => {
    const stop = new AbortController()
    const items = Array.from({ length: 200 }, (_, i) => `<item><g:id>${i}</g:id></item>`).join('')
    const feed = `<rss><channel>${items}</channel></rss>`
    let rows = 0
    const reading = streamXmlFeed(
      feed,
      {
        onHeader: () => undefined,
        onRows: (cells) => {
          rows += cells.length
          stop.abort(new DOMException('Cancelled', 'AbortError'))
        },
      },
      { signal: stop.signal, chunkBytes: 256 },
    )
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' })
    expect(rows).toBeLessThan(200)
  })
})
