import { plainHeader as plain } from './header-words.ts'
import { WOOCOMMERCE_EXPORT_HEADERS, WOOCOMMERCE_HEADERS } from './woocommerce-headers.ts'
import { escapeRegExp } from '../regexp-escape.ts'

/**
 * A WooCommerce export in the shop's language: WooCommerce writes its CSV headers through its
 * translations ("Nome", "Imagens", "Publicado", "Nome do atributo 1"), so a Portuguese shop's
 * export says nothing the column matcher knows. Its headers are read back as the English ones
 * WooCommerce translated them from (woocommerce-headers.ts, generated from WooCommerce's own .po
 * files), for telling the format and matching the columns; the person keeps seeing them as written.
 */

interface Pattern {
  /** The English msgid, placeholders and all: "Attribute %d name". */
  english: string
  test: RegExp
  /** For each capture of `test`, the placeholder of the English it fills (0-based). */
  fills: number[]
}

const PLACEHOLDER = /%(?:(\d+)\$)?([sd])/g

/** A msgstr (or msgid) as a pattern over a header, each placeholder a capture: "Peso (%s)" reads "Peso (kg)". */
function pattern(english: string, text: string): Pattern {
  const fills: number[] = []
  let next = 0
  let source = ''
  let at = 0
  const written = plain(text)
  for (const match of written.matchAll(PLACEHOLDER)) {
    source += escapeRegExp(written.slice(at, match.index))
    source += match[2] === 'd' ? '(\\d+)' : '(.+?)'
    fills.push(match[1] === undefined ? next++ : Number(match[1]) - 1)
    at = match.index + match[0].length
  }
  source += escapeRegExp(written.slice(at))
  return { english, test: new RegExp(`^${source}$`, 'iu'), fills }
}

/** The English header a header (made {@link plain}) reads as under `pattern`, placeholders filled from it; undefined if it is not one. */
function readAs(header: string, { english, test, fills }: Pattern): string | undefined {
  const found = test.exec(header)
  if (!found) return undefined
  let placeholder = 0
  return english.replace(PLACEHOLDER, () => found[fills.indexOf(placeholder++) + 1] ?? '')
}

/**
 * Headers one language writes, each read as its English original: the plain ones looked up, those
 * with a placeholder ("Peso (%s)", "Nome do atributo %d") matched in turn. The first English header
 * (in the exporter's order) takes a translation two share.
 */
class Vocabulary {
  private readonly exact = new Map<string, string>()
  private readonly patterns: Pattern[] = []

  constructor(headers: Iterable<readonly [english: string, written: string]>) {
    for (const [english, written] of headers) {
      const found = pattern(english, written)
      if (found.fills.length > 0) this.patterns.push(found)
      else if (!this.exact.has(plain(written).toLowerCase()))
        this.exact.set(plain(written).toLowerCase(), english)
    }
  }

  /** The English header `header` (made {@link plain}) is written for; undefined when it is none of these. */
  read(header: string): string | undefined {
    const exact = this.exact.get(header.toLowerCase())
    if (exact !== undefined) return exact
    for (const candidate of this.patterns) {
      const as = readAs(header, candidate)
      if (as !== undefined) return as
    }
    return undefined
  }
}

const ENGLISH = new Vocabulary(WOOCOMMERCE_EXPORT_HEADERS.map((english) => [english, english] as const))
const LANGUAGES = Object.entries(WOOCOMMERCE_HEADERS).map(([language, headers]) => ({
  language,
  vocabulary: new Vocabulary(
    Object.entries(headers).flatMap(([english, translations]) =>
      translations.map((translated) => [english, translated] as const),
    ),
  ),
}))

/** Headers of the language it takes before a file is read as a WooCommerce export in it. */
const LEAST_TRANSLATED = 3

/**
 * The English headers of a WooCommerce export written in one of the languages of
 * woocommerce-headers.ts, by column (a header that is not WooCommerce's stays as it is), with the
 * language; undefined unless most headers are WooCommerce's in that language or in English, and at
 * least {@link LEAST_TRANSLATED} are translated. Whether it is a WooCommerce export is for its
 * layout to tell (products.ts).
 */
export function wooCommerceInEnglish(
  headers: readonly string[],
): { language: string; headers: string[] } | undefined {
  const named = headers.filter((header) => header.trim() !== '').length
  const plainHeaders = headers.map(plain)
  const english = plainHeaders.map((header) => ENGLISH.read(header) !== undefined)
  let best: { language: string; headers: string[]; translated: number } | undefined
  for (const { language, vocabulary } of LANGUAGES) {
    let translated = 0
    const read = headers.map((header, column) => {
      const as = english[column] ? undefined : vocabulary.read(plainHeaders[column]!)
      if (as === undefined) return header
      translated++
      return as
    })
    if (translated > (best?.translated ?? 0)) best = { language, headers: read, translated }
  }
  if (!best || best.translated < LEAST_TRANSLATED) return undefined
  const known = best.translated + english.filter(Boolean).length
  return known * 2 > named ? { language: best.language, headers: withBlanksNamed(best.headers) } : undefined
}

/**
 * A blank header between two the exporter writes with one between them is that one: a real French
 * export heads its type column "  " between "ID" and "UGS" (SKU), and without its Type the file
 * was no WooCommerce export, and none of its names was read.
 */
function withBlanksNamed(headers: readonly string[]): string[] {
  return headers.map((header, column) => {
    if (header.trim() !== '') return header
    const before = WOOCOMMERCE_EXPORT_HEADERS.indexOf(headers[column - 1] ?? '')
    const after = WOOCOMMERCE_EXPORT_HEADERS.indexOf(headers[column + 1] ?? '')
    return before >= 0 && after === before + 2 ? WOOCOMMERCE_EXPORT_HEADERS[before + 1]! : header
  })
}
