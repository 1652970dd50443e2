import { SaxesParser, type SaxesTagNS } from 'saxes'
import type { CsvHandlers, CsvStreamOptions } from './csv.ts'
import { notUtf8Message, textChunks } from './decode.ts'
import { firstBareAmpersand } from './xml-ampersand.ts'
import { SheetFileError } from './errors.ts'
import { MAX_CELL_CHARS, MAX_COLUMNS, MAX_PENDING_CHARS } from './limits.ts'

/**
 * A Google Merchant Center product feed in XML, RSS 2.0 (`<rss><channel><item>`) or Atom
 * (`<feed><entry>`) with the `g:` namespace, read into the headers and rows the feed's
 * tab-separated form gives, so everything after (the `merchant-center` layout in products.ts,
 * column matching, conversion, the notes) is the sheet's. It has `streamCsv`'s shape: the CLI and
 * the importer's worker pick a reader by the file's format and nothing else differs.
 *
 * - A column is an item's child element, by its local name as the tab-separated feed writes it:
 *   `g:title` and a plain `title` are one column (the `g:` one wins when an item has both), Atom's
 *   `<link href>` is `link`, `summary` is `description`.
 * - An element given more than once in an item (`additional_image_link`) is one cell, its values
 *   joined with commas, as the tab-separated feed writes them.
 * - An element that holds elements (`g:shipping`'s country, service and price; `g:tax`) is no
 *   column: no field of a SKU takes shipping or tax, and a note says it was not read.
 * - Items may have different elements, and the headers must be known before the first row: the
 *   feed is read twice, once for its elements (which also finds any fault in the XML before a row
 *   is handed on), then for its items.
 *
 * Safety: saxes (streaming, no DTD processing) reads the XML. A DOCTYPE is refused outright,
 * since a feed needs none and one is how entity bombs and external entities come in; only XML's
 * five named entities and character references are expanded. Text is bounded as a CSV's is: an
 * element's text at 1 MB (`MAX_CELL_CHARS`, a cell), anything the parser holds unfinished (a
 * text, a CDATA section, a comment, a tag) at 4 MB (`MAX_PENDING_CHARS`), elements nested at most
 * `MAX_DEPTH` deep and at most `MAX_COLUMNS` columns. The feed itself streams, at any size.
 */

const GOOGLE_NS = 'http://base.google.com/ns/1.0'

/** Elements that are another name of a column of the tab-separated feed. */
const COLUMN_OF: Record<string, string> = { summary: 'description' }

/** The feed its root element says, or a SheetFileError saying what the file is instead. */
function feedKindOf(root: SaxesTagNS): FeedKind {
  if (isWordPressExport(root)) throw new SheetFileError('not-a-feed', WORDPRESS_EXPORT)
  if (root.local === 'rss') return 'RSS 2.0'
  if (root.local === 'feed') return 'Atom'
  // A script's feed may write RSS's <channel> alone, without the <rss> around it (a tryout's
  // Farfetch feed of 120 items did): its items are a feed's all the same.
  if (root.local === 'channel') return 'RSS 2.0 channel'
  throw new SheetFileError(
    'not-a-feed',
    `It is XML, but not a product feed: its root element is <${root.name}>, where a Google Merchant Center feed has <rss> (RSS 2.0) or <feed> (Atom).`,
  )
}

/**
 * WordPress's own export (Tools › Export, "WordPress eXtended RSS") is RSS 2.0 too: its items are
 * every post, page, picture and product of the site, products' variations and pictures among them,
 * told by WordPress's own elements, not a feed's. Told by its namespace (wordpress.org/export/).
 */
function isWordPressExport(root: SaxesTagNS): boolean {
  return Object.values(root.ns ?? {}).some((uri) => uri.startsWith('http://wordpress.org/export/'))
}

const WORDPRESS_EXPORT =
  'It is a WordPress export (Tools › Export), not a product feed: its items are every post, page, picture and product of the site. Export the products from WooCommerce instead (Products › Export, a CSV file), and import that.'

/** Past this column, where in a line the parser is is said too. */
const LONG_LINE = 200

/** A feed nests four deep (rss, channel, item, g:shipping, g:country); far deeper is no feed. */
const MAX_DEPTH = 32

type FeedKind = 'RSS 2.0' | 'RSS 2.0 channel' | 'Atom'

/** Each kind as the notes say it, and as its refusal says it without a single item. */
const KIND_WORDS: Record<FeedKind, { said: string; empty: string }> = {
  'RSS 2.0': {
    said: 'RSS 2.0',
    empty: 'an RSS 2.0 feed (<rss>) without a single <item> in its <channel>',
  },
  'RSS 2.0 channel': {
    said: 'RSS 2.0, its <channel> without the <rss> around it',
    empty: 'an RSS 2.0 <channel> without a single <item>',
  },
  Atom: { said: 'Atom', empty: 'an Atom feed (<feed>) without a single <entry>' },
}

/** One item's elements: each column's values, and whether they are `g:` elements. */
type Item = Map<string, { google: boolean; values: string[] }>

interface Pass {
  kind: FeedKind
  items: number
  /** Elements that held elements, with the names of those they held. */
  nested: Map<string, Set<string>>
}

const count = (n: number) => n.toLocaleString('en-US')

/**
 * One reading of the feed, handing each item's elements to `onItem` as it closes and calling
 * `onChunk` after each stretch of text (awaited: a slow reader holds the file back).
 */
async function readFeed(
  input: string | Blob,
  options: CsvStreamOptions,
  onItem: (item: Item) => void,
  onChunk: (progress: { bytes: number; total: number }) => void | Promise<void>,
): Promise<Pass> {
  const chunkBytes = options.chunkBytes ?? 1024 * 1024
  const parser = new SaxesParser({
    xmlns: true,
    position: true,
    // A feed that uses g: without declaring it is still plainly Google's.
    resolvePrefix: (prefix: string) => (prefix === 'g' ? GOOGLE_NS : undefined),
  })
  /** Lines of white space before `<?xml`, which the parser is not given: its lines count from after them. */
  let leadingLines = 0
  const at = () => whereIn(parser, leadingLines, item === undefined ? undefined : items + 1)
  let kind: FeedKind | undefined
  let items = 0
  const nested = new Map<string, Set<string>>()
  /** Local names of the open elements, the root first. */
  const open: string[] = []
  let item: Item | undefined
  let itemDepth = 0
  let field: { name: string; google: boolean; text: string; href?: string; nested: boolean } | undefined
  /** Where the parser last handed something over: what it holds since then is unfinished. */
  let lastEvent = 0
  const seen = () => (lastEvent = parser.position)

  // Six handlers at most: saxes keeps each on the parser, and a seventh turns it into a slow
  // dictionary object (measured: 91 MB/s with six, 15 with eight). A declaration or processing
  // instruction is followed by a tag or text, which counts it seen.
  parser.on('comment', seen)
  parser.on('doctype', () => {
    throw new SheetFileError(
      'xml-doctype',
      `The feed declares a DOCTYPE (${at()}). A product feed needs none, and a DOCTYPE is how entities that expand to gigabytes or read other files come in, so it is refused. Remove the <!DOCTYPE …> line.`,
    )
  })
  parser.on('opentag', (tag: SaxesTagNS) => {
    seen()
    const depth = open.length
    open.push(tag.local)
    if (depth >= MAX_DEPTH)
      throw new SheetFileError(
        'not-xml',
        `Elements are nested more than ${MAX_DEPTH} deep (${at()}): it is not a product feed.`,
      )
    if (depth === 0) {
      kind = feedKindOf(tag)
      return
    }
    if (item === undefined) {
      const parent = open[depth - 1]
      const isItem =
        kind === 'RSS 2.0'
          ? tag.local === 'item' && parent === 'channel' && depth === 2
          : tag.local === (kind === 'Atom' ? 'entry' : 'item') && depth === 1
      if (isItem) {
        item = new Map()
        itemDepth = depth
      }
      return
    }
    if (depth === itemDepth + 1) {
      const name = COLUMN_OF[tag.local] ?? tag.local
      // Atom's link is its href; a link to anything but the item's page (rel="self", "enclosure") is no link.
      const rel = tag.attributes.rel?.value ?? 'alternate'
      const href = tag.attributes.href?.value
      field = { name, google: tag.uri === GOOGLE_NS, text: '', nested: false }
      if (href !== undefined && rel === 'alternate') field.href = href
      else if (href !== undefined) field = undefined
      return
    }
    if (field && depth === itemDepth + 2) {
      field.nested = true
      const parts = nested.get(field.name) ?? new Set()
      parts.add(tag.local)
      nested.set(field.name, parts)
    }
  })
  const text = (value: string) => {
    seen()
    if (!field || open.length !== itemDepth + 2) return
    field.text += value
    if (field.text.length > MAX_CELL_CHARS)
      throw new SheetFileError(
        'huge-cell',
        `An item's <${field.name}> (${at()}) holds more than ${MAX_CELL_CHARS / 1024 / 1024} MB of text; an element may hold at most 1 MB.`,
      )
  }
  parser.on('text', text)
  parser.on('cdata', text)
  parser.on('closetag', () => {
    seen()
    open.pop()
    const depth = open.length
    if (item === undefined) return
    if (depth === itemDepth + 1 && field) {
      if (!field.nested) add(item, field.name, field.google, field.href ?? field.text.trim())
      field = undefined
    } else if (depth === itemDepth) {
      items++
      onItem(item)
      item = undefined
    }
  })

  /** Leading white space before `<?xml` (feeds written by scripts often start with a line break). */
  let started = false
  try {
    for await (const chunk of textChunks(input, chunkBytes, options.signal)) {
      let piece = chunk.text
      if (!started) {
        const start = trimmedStart(piece)
        ;[piece, started] = [start.piece, start.piece.length > 0]
        leadingLines += start.lines
      }
      if (piece) parser.write(piece)
      if (chunk.last) {
        if (!started) throw new SheetFileError('empty', 'The file is empty.')
        parser.close()
      } else if (parser.position - lastEvent > MAX_PENDING_CHARS) {
        throw new SheetFileError(
          'huge-cell',
          `From ${at()}, more than ${MAX_PENDING_CHARS / 1024 / 1024} MB of the feed is one text, comment or tag that does not end: is a tag or a CDATA section left open?`,
        )
      }
      await onChunk({ bytes: chunk.bytes, total: chunk.total })
      options.signal?.throwIfAborted()
    }
  } catch (error) {
    const rereading = () => textChunks(input, chunkBytes, options.signal)
    throw await feedError(error, { input, where: at(), line: parser.line + leadingLines, rereading })
  }
  if (items === 0)
    throw new SheetFileError('not-a-feed', `It is ${KIND_WORDS[kind!].empty}: there are no products in it.`)
  return { kind: kind!, items, nested }
}

/**
 * Where the parser is, as a person finds it: a feed a script wrote is often a single line, so its
 * column, and the item it is in, say where ("line 2" alone said nothing of a feed of 1.2 MB).
 */
function whereIn(parser: SaxesParser, leadingLines: number, item: number | undefined): string {
  const where = [`line ${parser.line + leadingLines}`]
  if (parser.column > LONG_LINE) where.push(`column ${parser.column}`)
  if (item !== undefined) where.push(`in item ${item}`)
  return where.join(', ')
}

/** A value of an element: `g:` elements win over plain ones of the same name, repeats are kept. */
function add(item: Item, name: string, google: boolean, value: string) {
  const had = item.get(name)
  if (had && had.google && !google) return
  if (!had || (google && !had.google)) item.set(name, { google, values: value ? [value] : [] })
  else if (value) had.values.push(value)
}

/** The encoding the XML declaration names, read from the first bytes whatever they are. */
async function declaredEncoding(input: string | Blob): Promise<string | undefined> {
  const head = typeof input === 'string' ? input.slice(0, 200) : await input.slice(0, 200).text()
  return /^\s*<\?xml[^>]*\sencoding\s*=\s*["']([\w.:-]+)["']/.exec(head.replace(/^\uFEFF/, ''))?.[1]
}

/** Where the reader was when it failed, and its feed read again from the start. */
interface Failure {
  input: string | Blob
  /** Where the parser was, in words: "line 12, in item 3". */
  where: string
  line: number
  rereading: () => AsyncIterable<{ text: string; last: boolean }>
}

/**
 * What went wrong, as the reader says it. The parser's own errors are plain Errors whose message
 * starts with the line and column ("12:4: unclosed tag"): said again with the line in words, or,
 * when an "&" that begins no entity came before, as that "&" (the parser's error then comes far
 * later). Any other error (the signal's, a handler's) passes unchanged.
 */
async function feedError(error: unknown, failure: Failure): Promise<unknown> {
  if (error instanceof SheetFileError && error.code === 'not-utf8') {
    const declared = await declaredEncoding(failure.input)
    const other =
      declared && !/^utf-?(8|16)$/i.test(declared) ? ` It says it is ${declared}, which is not read.` : ''
    return new SheetFileError('not-utf8', `${notUtf8Message('xml')}${other}`)
  }
  if (!isParserError(error)) return error
  const bare = await firstBareAmpersand(failure.rereading())
  if (bare && bare.line <= failure.line)
    return new SheetFileError(
      'not-xml',
      `It is not well-formed XML: an “&” that begins no entity (line ${bare.line}, column ${bare.column}: “${bare.excerpt}”). Write it &amp;, as XML asks, or put the text in a CDATA section.`,
    )
  const message = error.message.replace(/^\d+:\d+: /, '').replace(/\.$/, '')
  if (message === 'undefined entity')
    return new SheetFileError(
      'not-xml',
      `It is not well-formed XML: an entity XML does not define (${failure.where}). A feed may use only &amp; &lt; &gt; &quot; &apos; and numbered ones such as &#160;; HTML's, such as &nbsp; or &eacute;, are not XML's.`,
    )
  return new SheetFileError('not-xml', `It is not well-formed XML: ${message} (${failure.where}).`)
}

/** The parser's own errors are plain Errors whose message starts with the line and column ("12:4: …"). */
function isParserError(error: unknown): error is Error {
  return error instanceof Error && error.constructor === Error && /^\d+:\d+: /.test(error.message)
}

/**
 * The feed's first stretch without the white space before `<?xml` (feeds written by scripts often
 * start with a line break), which the parser refuses, and how many lines that was.
 */
function trimmedStart(text: string): { piece: string; lines: number } {
  const piece = text.trimStart()
  if (piece && !piece.startsWith('<'))
    throw new SheetFileError(
      'not-xml',
      `It is not XML: it starts with "${piece.slice(0, 40).split('\n')[0]}", where XML starts with a tag (<).`,
    )
  return { piece, lines: text.slice(0, text.length - piece.length).split('\n').length - 1 }
}

/**
 * Reads a Merchant Center XML feed as `streamCsv` reads a CSV (see the top of this file): the
 * header once, then rows an item each, a stretch at a time. Throws SheetFileError for a file it
 * cannot read, or the signal's reason when aborted.
 */
export async function streamXmlFeed(
  input: string | Blob,
  handlers: CsvHandlers,
  options: CsvStreamOptions = {},
): Promise<{ rows: number; notes: string[] }> {
  const columns = new Map<string, number>()
  const first = await readFeed(
    input,
    options,
    (item) => {
      for (const name of item.keys()) {
        if (columns.has(name)) continue
        if (columns.size >= MAX_COLUMNS)
          throw new SheetFileError(
            'too-many-columns',
            `The feed's items have more than ${count(MAX_COLUMNS)} different elements; at most ${count(MAX_COLUMNS)} are read. Is it a product feed?`,
          )
        columns.set(name, columns.size)
      }
    },
    () => undefined,
  )
  const headers = [...columns.keys()]
  handlers.onHeader(headers)
  let rows: string[][] = []
  let read = 0
  await readFeed(
    input,
    options,
    (item) => {
      const cells = headers.map(() => '')
      for (const [name, { values }] of item) cells[columns.get(name)!] = values.join(',')
      rows.push(cells)
    },
    async (progress) => {
      if (rows.length === 0) return
      const done = rows
      rows = []
      read += done.length
      await handlers.onRows(done, progress)
    },
  )
  return { rows: read, notes: feedNotes(first) }
}

function feedNotes(pass: Pass): string[] {
  const notes = [
    `read as an XML feed (${KIND_WORDS[pass.kind].said}): ${pass.items === 1 ? '1 item, read as a row' : `${count(pass.items)} items, each read as a row`}`,
  ]
  for (const [name, parts] of pass.nested) {
    notes.push(
      `the feed's <${name}> elements hold elements of their own (${[...parts].join(', ')}), which no field takes: they are not read`,
    )
  }
  return notes
}
