/**
 * Writes src/shared/sheet/woocommerce-headers.ts: the headers WooCommerce's product CSV exporter
 * writes, in the languages a shop exports in, taken from WooCommerce's own translations; and the
 * real sample export in two of them (SAMPLES: its header row alone translated). The
 * exporter names its columns with `__( 'Name', 'woocommerce' )` and `sprintf( __( 'Attribute %d
 * name', 'woocommerce' ), $i )`, so a Portuguese shop's export says "Nome" and "Nome do atributo 1".
 *
 *   node scripts/woocommerce-headers.ts OWNER/NAME=GIT_DIR…
 *
 * Each argument gives a local clone (or bare mirror) of one repository of SOURCES; every file is
 * read at the commit named there with `git show`, so the output does not depend on the clone's
 * checkout. The English headers are every `__( '…', 'woocommerce' )` of the exporter
 * (includes/export/class-wc-product-csv-exporter.php) in each snapshot, the newest first; their
 * translations are the msgstr of the same msgid (without msgctxt, not fuzzy, not empty, not the
 * English itself) in each .po file. Never needed at run time: the app reads the generated module.
 *
 * The translated samples: WooCommerce's English sample_products.csv (test/fixtures/sheets/exports/
 * real/) with its header row replaced, each header by the msgstr of its msgid in one .po file
 * (placeholders filled as in the English: "Peso (lbs)"), quoted as WooCommerce's exporter quotes
 * (PHP's fputcsv: a header with a space, comma, quote, backslash, tab or line break); the BOM and
 * every byte after the header row are the English file's.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { format, resolveConfig } from 'prettier'
import { plainHeader } from '../src/shared/sheet/header-words.ts'

interface Source {
  repo: string
  commit: string
  /** WooCommerce's version in that snapshot (its plugin header), for the generated comment. */
  version: string
  /** The plugin folder, holding includes/export/class-wc-product-csv-exporter.php. */
  plugin: string
  /** .po files by locale. */
  po: Record<string, string>
}

const headerText = (text: string) => plainHeader(text).toLowerCase()

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

const LANGUAGES = 'wp-content/languages/plugins'
const po = (...locales: string[]) =>
  Object.fromEntries(locales.map((locale) => [locale, `${LANGUAGES}/woocommerce-${locale}.po`]))

/** Newest WooCommerce first: its exporter's header order is the table's. */
const SOURCES: Source[] = [
  {
    repo: 'launstecnologia/vetraiz',
    commit: 'd7a8e4da85c1224eb46cd9e991a68b7bfd35909d',
    version: '9.6.1',
    plugin: 'wp-content/plugins/woocommerce',
    po: po('pt_BR'),
  },
  {
    repo: 'AnthonyCollette/streamerwordpresssite',
    commit: 'a1ea7b1fa06a39bed541daba3de8f1454c2b9275',
    version: '6.3.1',
    plugin: 'wp-content/plugins/woocommerce',
    po: po('de_DE', 'es_ES', 'fr_FR', 'it_IT', 'nl_NL'),
  },
  {
    repo: 'Salemoche/Concept360',
    commit: '3807e4bab13a5cfb1decf1099125c6f3591ebdc4',
    version: '3.4.5',
    plugin: 'wp-content/plugins/woocommerce',
    // Every language of the snapshot: a Russian shop's export read as a plain sheet lost its names.
    po: po(
      ...['pt_BR', 'pt_PT', 'de_DE', 'de_CH', 'de_CH_informal', 'es_ES', 'fr_FR', 'it_IT', 'nl_NL'],
      ...['da_DK', 'sv_SE', 'nb_NO', 'fi', 'pl_PL', 'ru_RU', 'uk', 'el', 'tr_TR'],
      ...['ja', 'ko_KR', 'zh_CN', 'zh_TW', 'th', 'vi'],
    ),
  },
]

const REAL = 'test/fixtures/sheets/exports/real'

/** The real sample translated, by the .po of one source: the newest WooCommerce of each language. */
const SAMPLES = [
  { repo: 'launstecnologia/vetraiz', locale: 'pt_BR', out: 'woocommerce-sample-products.pt_BR.csv' },
  {
    repo: 'AnthonyCollette/streamerwordpresssite',
    locale: 'fr_FR',
    out: 'woocommerce-sample-products.fr_FR.csv',
  },
]

/** The language a locale's headers are said to be in ("Portuguese headers"). */
const LANGUAGE_OF: Record<string, string> = {
  pt_BR: 'Portuguese',
  pt_PT: 'Portuguese',
  es_ES: 'Spanish',
  fr_FR: 'French',
  de_DE: 'German',
  it_IT: 'Italian',
  nl_NL: 'Dutch',
  de_CH: 'German',
  de_CH_informal: 'German',
  da_DK: 'Danish',
  sv_SE: 'Swedish',
  nb_NO: 'Norwegian',
  fi: 'Finnish',
  pl_PL: 'Polish',
  ru_RU: 'Russian',
  uk: 'Ukrainian',
  el: 'Greek',
  tr_TR: 'Turkish',
  ja: 'Japanese',
  ko_KR: 'Korean',
  zh_CN: 'Chinese',
  zh_TW: 'Chinese',
  th: 'Thai',
  vi: 'Vietnamese',
}

function gitShow(gitDir: string, commit: string, path: string): string {
  return execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:${path}`], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
}

/** The exporter's header msgids, in the file's order. */
function exporterHeaders(php: string): string[] {
  const found = [...php.matchAll(/__\(\s*'((?:[^'\\]|\\.)*)'\s*,\s*'woocommerce'\s*\)/g)]
  return found.map((match) => match[1]!.replace(/\\(.)/g, '$1'))
}

/** A .po string literal's text: `"…"` with C escapes. */
function poString(literal: string): string {
  const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r' }
  return literal.slice(1, -1).replace(/\\(.)/g, (_, char: string) => escapes[char] ?? char)
}

/** msgid → msgstr of a .po file's entries without a context, neither fuzzy nor untranslated. */
function poEntries(text: string): Map<string, string> {
  const entries = new Map<string, string>()
  for (const block of text.replace(/\r\n/g, '\n').split(/\n\s*\n/)) {
    const fields = new Map<string, string>()
    let fuzzy = false
    let current: string | undefined
    for (const line of block.split('\n')) {
      if (line.startsWith('#,') && line.includes('fuzzy')) fuzzy = true
      if (line.startsWith('#') || line.trim() === '') continue
      const keyed = /^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+(".*")\s*$/.exec(line)
      if (keyed) {
        current = keyed[1]!
        fields.set(current, poString(keyed[2]!))
      } else if (current && /^\s*".*"\s*$/.test(line)) {
        fields.set(current, fields.get(current)! + poString(line.trim()))
      }
    }
    const msgid = fields.get('msgid')
    const msgstr = fields.get('msgstr')
    if (fuzzy || fields.has('msgctxt') || !msgid || !msgstr) continue
    entries.set(msgid, msgstr)
  }
  return entries
}

/** A header as WooCommerce's exporter writes it with PHP's fputcsv: quoted when it has to be. */
function csvField(text: string): string {
  return /[,"\\ \t\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** The fields of a header row without line breaks in it, as PHP's fgetcsv reads them. */
function headerFields(line: string): string[] {
  const fields: string[] = []
  for (const match of line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g))
    fields.push(match[1] !== undefined ? match[1].replace(/""/g, '"') : match[2]!)
  return fields
}

/** `header` in the .po's language: the msgstr of the English msgid it was written from. */
function translatedHeader(header: string, english: readonly string[], entries: Map<string, string>): string {
  for (const msgid of english) {
    const source = msgid.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%[sd]/g, '(.+?)')
    const found = new RegExp(`^${source}$`).exec(header)
    const msgstr = found && entries.get(msgid)
    if (!found || !msgstr) continue
    let at = 1
    return msgstr.replace(
      /%(?:(\d+)\$)?[sd]/g,
      (_, position?: string) => found[position ? Number(position) : at++]!,
    )
  }
  throw new Error(`"${header}" is no header of WooCommerce's exporter, or has no translation`)
}

/** The English sample with its header row in `entries`' language; every other byte as it is. */
function translatedSample(english: readonly string[], entries: Map<string, string>): Buffer {
  const bytes = readFileSync(join(ROOT, REAL, 'woocommerce-sample-products.csv'))
  const bom = bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])) ? 3 : 0
  const end = bytes.indexOf(0x0a)
  const line = bytes.subarray(bom, end).toString('utf8')
  const header = headerFields(line)
    .map((field) => csvField(translatedHeader(field, english, entries)))
    .join(',')
  return Buffer.concat([bytes.subarray(0, bom), Buffer.from(header, 'utf8'), bytes.subarray(end)])
}

async function main(args: string[]) {
  const gitDirs = new Map(
    args.map((arg) => {
      const at = arg.indexOf('=')
      if (at < 0) throw new Error(`"${arg}" is not OWNER/NAME=GIT_DIR`)
      return [arg.slice(0, at), arg.slice(at + 1)] as const
    }),
  )
  const english: string[] = []
  /** language → English → its translations, in the order first seen (newest WooCommerce first). */
  const table = new Map<string, Map<string, string[]>>()
  const missing: string[] = []
  /** Each source's entries, by `repo locale`, for translating the samples. */
  const poFiles = new Map<string, Map<string, string>>()
  for (const source of SOURCES) {
    const gitDir = gitDirs.get(source.repo)
    if (!gitDir) throw new Error(`No git directory given for ${source.repo}`)
    const php = gitShow(
      gitDir,
      source.commit,
      `${source.plugin}/includes/export/class-wc-product-csv-exporter.php`,
    )
    for (const header of exporterHeaders(php)) if (!english.includes(header)) english.push(header)
    for (const [locale, path] of Object.entries(source.po)) {
      const entries = poEntries(gitShow(gitDir, source.commit, path))
      poFiles.set(`${source.repo} ${locale}`, entries)
      const language = LANGUAGE_OF[locale]!
      const headers = table.get(language) ?? new Map<string, string[]>()
      table.set(language, headers)
      for (const header of exporterHeaders(php)) {
        const translated = entries.get(header)
        if (translated === undefined) {
          missing.push(`${source.repo} ${locale}: "${header}"`)
          continue
        }
        // Compared as the app compares a header (woocommerce-language.ts): case, spaces (a
        // no-break one before "?" in French) and apostrophes (’ or ') do not tell two apart.
        const text = translated.trim()
        if (headerText(text) === headerText(header)) continue
        const known = headers.get(header) ?? []
        if (!known.some((other) => headerText(other) === headerText(text)))
          headers.set(header, [...known, text])
      }
    }
  }
  // One translation naming two English headers in a language would read one as the other.
  for (const [language, headers] of table) {
    const seen = new Map<string, string>()
    for (const [header, translations] of headers)
      for (const translated of translations) {
        const other = seen.get(headerText(translated))
        if (other && other !== header)
          process.stderr.write(`${language}: "${translated}" translates both "${other}" and "${header}"\n`)
        seen.set(headerText(translated), header)
      }
  }
  for (const line of missing) process.stderr.write(`untranslated: ${line}\n`)

  const ordered = [...table].map(
    ([language, headers]) =>
      [
        language,
        english.flatMap((header) => (headers.has(header) ? [[header, headers.get(header)!]] : [])),
      ] as const,
  )
  const sources = SOURCES.map((source) =>
    [
      ` * - ${source.repo} @ ${source.commit} (WooCommerce ${source.version}):`,
      ` *   ${source.plugin}/includes/export/class-wc-product-csv-exporter.php;`,
      ` *   ${LANGUAGES}/woocommerce-{${Object.keys(source.po).join(',')}}.po`,
    ].join('\n'),
  ).join('\n')
  const body = ordered
    .map(
      ([language, headers]) =>
        `  ${language}: {\n` +
        headers
          .map(([header, translations]) => `    ${JSON.stringify(header)}: ${JSON.stringify(translations)},`)
          .join('\n') +
        '\n  },',
    )
    .join('\n')
  const module = `/**
 * WooCommerce's product CSV export headers in the languages shops export in, from WooCommerce's
 * own translations. Generated by scripts/woocommerce-headers.ts: do not edit by hand. Read from:
${sources}
 * Licence: GPL-3.0, WooCommerce's ("License: GPLv3" in the plugin's readme.txt in each snapshot);
 * each .po file "is distributed under the same license as the Plugins - WooCommerce package".
 */

/** The headers the exporter writes, in its order (\`%s\`: a unit or a meta key; \`%d\`: a number). */
export const WOOCOMMERCE_EXPORT_HEADERS: readonly string[] = ${JSON.stringify(english)}

/**
 * By language, each English header with its translations, newest WooCommerce first. A translation
 * the same as the English (spaces, case and apostrophes aside) is left out: it is read as English.
 */
export const WOOCOMMERCE_HEADERS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
${body}
}
`
  const out = join(ROOT, 'src/shared/sheet/woocommerce-headers.ts')
  writeFileSync(out, await format(module, { ...(await resolveConfig(out)), filepath: out }))
  process.stdout.write(`${out}: ${english.length} headers in ${table.size} languages\n`)
  for (const sample of SAMPLES) {
    const file = join(ROOT, REAL, sample.out)
    writeFileSync(file, translatedSample(english, poFiles.get(`${sample.repo} ${sample.locale}`)!))
    process.stdout.write(`${file}: its header row in ${sample.locale}, from ${sample.repo}\n`)
  }
}

await main(process.argv.slice(2))
