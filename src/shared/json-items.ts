import { MAX_JSON_DEPTH } from './json-depth.ts'

/**
 * A JSON document of SKUs read as its text arrives, a stretch at a time, so that a file of a
 * million SKUs (gigabytes, beyond the longest string the engine can make) never sits in memory:
 * the items of a list, or of the `skus` list of an object wrapping one (a bulk request), are handed
 * over one by one as they complete; any other document (one SKU, an app request, a scalar) is read
 * whole, as it is small.
 *
 * Only the outline is parsed here: the root, the root object's keys and the lists' commas and
 * brackets. Each item (and each of the root object's other values) is found by counting brackets
 * outside strings, then parsed by `JSON.parse` itself, so every value is exactly what `JSON.parse`
 * of the whole document would give. The nesting limit is checked while counting, so nothing walks
 * the values afterwards.
 *
 * Measured on 100,000 SKUs (198 MB): this 2.0–2.2 s; the streaming parsers on the registry 3.5–4.1 s
 * (stream-json) and 4.6–4.9 s (@streamparser/json), and neither names where a malformed file goes
 * wrong as `JSON.parse` does (docs/dependencies.md).
 *
 * Errors are `JsonReadError`s in `JSON.parse`'s words, naming the position in the whole text (and
 * its line and column); `JSON.parse`'s own message for a malformed item gets that item's place.
 */

export type JsonReadErrorCode = 'empty' | 'syntax' | 'too-deep' | 'too-large' | 'second-list'

export class JsonReadError extends Error {
  readonly code: JsonReadErrorCode

  constructor(code: JsonReadErrorCode, message: string) {
    super(message)
    this.name = 'JsonReadError'
    this.code = code
  }
}

/**
 * How the document holds its SKUs: a list, an object with a `skus` list (both handed over item by
 * item), or anything else, read whole and given at the end.
 */
export type JsonRoot = { shape: 'list' } | { shape: 'wrapped' } | { shape: 'whole'; document: unknown }

/** The longest one value (a SKU, an app, the document around a list) may be: far beyond any SKU. */
export const MAX_VALUE_CHARS = 64 * 1024 * 1024

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const NEWLINE = 0x0a

/** The quote that closes a string whose text goes on from `from` (one after an odd run of backslashes is escaped), or -1. */
function closingQuote(text: string, from: number): number {
  let quote = text.indexOf('"', from)
  while (quote >= 0) {
    let before = quote - 1
    while (text.charCodeAt(before) === BACKSLASH) before--
    if ((quote - 1 - before) % 2 === 0) return quote
    quote = text.indexOf('"', quote + 1)
  }
  return -1
}

const isSpace = (code: number) => code === 0x20 || code === NEWLINE || code === 0x0d || code === 0x09

/** What the outline expects next. */
type Expect =
  | 'root'
  | 'item-or-end'
  | 'item'
  | 'comma-or-end'
  | 'key-or-end'
  | 'key'
  | 'colon'
  | 'value'
  | 'member-comma-or-end'
  | 'nothing'

/** A value being scanned for its end: where it starts, and the scan's state where the text ran out. */
interface Capture {
  start: number
  at: number
  depth: number
  inString: boolean
  /** Nesting levels around the value: its own containers count from there. */
  base: number
  scalar: boolean
  /** What the value is: an item of the list, a key, a value of the root object, or the root itself. */
  role: 'item' | 'key' | 'member' | 'root'
}

export class JsonItemReader {
  private readonly maxDepth: number
  private buffer = ''
  /** Where the scan is in `buffer`. */
  private at = 0
  /** Characters and line breaks before `buffer`, and where the last of those lines starts. */
  private offset = 0
  private lines = 0
  private lineStart = 0
  private expect: Expect = 'root'
  private capture: Capture | undefined
  private shape: 'list' | 'object' | undefined
  /** In the root object: its members as text (to parse it whole when it wraps no list), the key at hand. */
  private members: string[] = []
  private membersLength = 0
  private key = ''
  private keyText = ''
  /** Whether the items being read are those of the root object's `skus`. */
  private inSkus = false
  private skusListed = false
  private whole: { document: unknown } | undefined

  constructor(maxDepth: number = MAX_JSON_DEPTH) {
    this.maxDepth = maxDepth
  }

  /** Once known: whether items are handed over, or (at the end) the document read whole. */
  get root(): JsonRoot | undefined {
    if (this.whole) return { shape: 'whole', document: this.whole.document }
    if (this.shape === 'list') return { shape: 'list' }
    if (this.skusListed) return { shape: 'wrapped' }
    return undefined
  }

  /** Feeds text; returns the items it completed. `last` ends the document. */
  push(text: string, last: boolean): unknown[] {
    this.buffer += text
    const items: unknown[] = []
    this.read(items, last)
    if (last) this.finish()
    const keep = this.capture ? this.capture.start : this.at
    if (this.capture && this.capture.at - this.capture.start > MAX_VALUE_CHARS) {
      throw new JsonReadError(
        'too-large',
        `The value at ${this.where(this.capture.start)} holds more than ${MAX_VALUE_CHARS / 1024 / 1024} MB of text; one SKU or app may hold at most that.`,
      )
    }
    // What is behind the scan is dropped; what a value being scanned has read so far is kept.
    this.advance(keep)
    return items
  }

  /** Drops `buffer` before `index`, keeping count of the characters and lines it held. */
  private advance(index: number) {
    if (index === 0) return
    const { buffer } = this
    for (let at = buffer.indexOf('\n'); at >= 0 && at < index; at = buffer.indexOf('\n', at + 1)) {
      this.lines++
      this.lineStart = this.offset + at + 1
    }
    this.offset += index
    this.buffer = buffer.slice(index)
    if (this.capture) {
      this.capture.start -= index
      this.capture.at -= index
    }
    this.at -= index
  }

  private read(items: unknown[], last: boolean) {
    const { buffer } = this
    while (true) {
      if (this.capture) {
        const end = this.scan(this.capture, last)
        if (end < 0) return
        this.took(this.capture, end, items)
        continue
      }
      while (this.at < buffer.length && isSpace(buffer.charCodeAt(this.at))) this.at++
      if (this.at >= buffer.length) return
      const code = buffer.charCodeAt(this.at)
      switch (this.expect) {
        case 'root':
          if (code === OPEN_BRACKET) this.open('list', 'item-or-end')
          else if (code === OPEN_BRACE) this.open('object', 'key-or-end')
          else this.begin('root', 0)
          break
        case 'item-or-end':
        case 'item':
          if (code === CLOSE_BRACKET && this.expect === 'item-or-end') this.closeList()
          else if (code === COMMA || code === CLOSE_BRACKET || code === CLOSE_BRACE || code === COLON)
            throw this.syntax(`Unexpected token '${String.fromCharCode(code)}' in JSON`, this.at)
          else this.begin('item', this.inSkus ? 2 : 1)
          break
        case 'comma-or-end':
          if (code === COMMA) this.step('item')
          else if (code === CLOSE_BRACKET) this.closeList()
          else throw this.expected(this.at)
          break
        case 'key-or-end':
        case 'key':
          if (code === CLOSE_BRACE && this.expect === 'key-or-end') this.closeObject()
          else if (code === QUOTE) this.begin('key', 1)
          else throw this.expected(this.at)
          break
        case 'colon':
          if (code !== COLON) throw this.expected(this.at)
          this.step('value')
          break
        case 'value':
          if (this.key === 'skus' && this.skusListed) {
            throw new JsonReadError(
              'second-list',
              `The object names "skus" a second time, at ${this.where(this.at)}, after its list of SKUs: say which list is meant.`,
            )
          }
          if (this.key === 'skus' && code === OPEN_BRACKET) {
            // The bulk request's list: its items are handed over; the object's other members no longer matter.
            this.skusListed = true
            this.inSkus = true
            this.members = []
            this.membersLength = 0
            this.step('item-or-end')
          } else this.begin('member', 1)
          break
        case 'member-comma-or-end':
          if (code === COMMA) this.step('key')
          else if (code === CLOSE_BRACE) this.closeObject()
          else throw this.expected(this.at)
          break
        case 'nothing':
          throw this.syntax('Unexpected non-whitespace character after JSON', this.at)
      }
    }
  }

  private step(expect: Expect) {
    this.at++
    this.expect = expect
  }

  private open(shape: 'list' | 'object', expect: Expect) {
    if (this.maxDepth <= 0) throw this.tooDeep()
    this.shape = shape
    this.step(expect)
  }

  private closeList() {
    if (this.inSkus) {
      this.inSkus = false
      this.step('member-comma-or-end')
    } else this.step('nothing')
  }

  private closeObject() {
    if (!this.skusListed) this.whole = { document: JSON.parse(`{${this.members.join(',')}}`) as unknown }
    this.members = []
    this.step('nothing')
  }

  private begin(role: Capture['role'], base: number) {
    const code = this.buffer.charCodeAt(this.at)
    const container = code === OPEN_BRACE || code === OPEN_BRACKET
    this.capture = {
      start: this.at,
      at: this.at,
      depth: 0,
      inString: false,
      base,
      scalar: !container && code !== QUOTE,
      role,
    }
  }

  /**
   * Scans the value being captured for its end, from where the last text ran out; returns the
   * index after it, or -1 when the text runs out first. Strings are skipped whole (their brackets
   * are text); containers end when their brackets balance; a scalar ends before the next comma,
   * bracket or space (`JSON.parse` then says whether it is one).
   */
  private scan(capture: Capture, last: boolean): number {
    const { buffer } = this
    const { length } = buffer
    let i = capture.at
    if (capture.scalar) {
      for (; i < length; i++) {
        const code = buffer.charCodeAt(i)
        if (code === COMMA || code === CLOSE_BRACKET || code === CLOSE_BRACE || isSpace(code)) return i
      }
      capture.at = i
      return last ? i : -1
    }
    let { depth, inString } = capture
    while (i < length) {
      if (inString) {
        // Searched for natively: most of a SKU's text is in its strings.
        const quote = closingQuote(buffer, i)
        if (quote < 0) {
          i = length
          break
        }
        inString = false
        i = quote + 1
        if (depth === 0) return i
        continue
      }
      const code = buffer.charCodeAt(i)
      if (code === QUOTE) inString = true
      else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
        if (capture.base + depth >= this.maxDepth) throw this.tooDeep()
        depth++
      } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        depth--
        if (depth === 0) return i + 1
      }
      i++
    }
    capture.at = i
    capture.depth = depth
    capture.inString = inString
    return -1
  }

  /** A captured value is complete: parsed by `JSON.parse`, and put where its role says. */
  private took(capture: Capture, end: number, items: unknown[]) {
    const text = this.buffer.slice(capture.start, end)
    this.capture = undefined
    this.at = end
    switch (capture.role) {
      case 'item':
        items.push(this.parse(text, capture.start))
        this.expect = 'comma-or-end'
        break
      case 'key':
        this.keyText = text
        this.key = this.parse(text, capture.start) as string
        this.expect = 'colon'
        break
      case 'member':
        // Checked now, so a mistake is named where it is; kept as text, to parse the object whole.
        this.parse(text, capture.start)
        this.members.push(`${this.keyText}:${text}`)
        this.membersLength += text.length
        if (this.membersLength > MAX_VALUE_CHARS) {
          throw new JsonReadError(
            'too-large',
            `The document holds more than ${MAX_VALUE_CHARS / 1024 / 1024} MB of text besides a list of SKUs; one SKU or app may hold at most that.`,
          )
        }
        this.expect = 'member-comma-or-end'
        break
      case 'root':
        this.whole = { document: this.parse(text, capture.start) }
        this.expect = 'nothing'
        break
    }
  }

  /** The end of the text: the document must be whole, and said as `JSON.parse` says it when not. */
  private finish() {
    const end = this.buffer.length
    if (this.capture?.inString) throw this.syntax('Unterminated string in JSON', end)
    if (this.capture) throw new JsonReadError('syntax', 'Unexpected end of JSON input')
    if (this.expect === 'root') throw new JsonReadError('empty', 'the file is empty')
    if (this.expect !== 'nothing') throw this.expected(end)
  }

  /** `JSON.parse` of a value, its error placed in the whole text. */
  private parse(text: string, start: number): unknown {
    try {
      return JSON.parse(text) as unknown
    } catch (error) {
      const message = (error as Error).message
      const found = / at position (\d+)(?: \(line (\d+) column (\d+)\))?/.exec(message)
      if (!found) throw new JsonReadError('syntax', `${message}, in the value at ${this.where(start)}`)
      throw new JsonReadError(
        'syntax',
        message.replace(found[0], ` at ${this.where(start + Number(found[1]))}`),
      )
    }
  }

  private syntax(words: string, index: number): JsonReadError {
    return new JsonReadError('syntax', `${words} at ${this.where(index)}`)
  }

  /** What the outline expected where it found something else (or the end), in `JSON.parse`'s words. */
  private expected(index: number): JsonReadError {
    const words: Partial<Record<Expect, string>> = {
      'comma-or-end': "Expected ',' or ']' after array element in JSON",
      'key-or-end': "Expected property name or '}' in JSON",
      key: 'Expected double-quoted property name in JSON',
      colon: "Expected ':' after property name in JSON",
      'member-comma-or-end': "Expected ',' or '}' after property value in JSON",
    }
    const said = words[this.expect]
    return said ? this.syntax(said, index) : new JsonReadError('syntax', 'Unexpected end of JSON input')
  }

  private tooDeep(): JsonReadError {
    return new JsonReadError('too-deep', `it nests objects or lists more than ${this.maxDepth} levels deep`)
  }

  /** "position N (line L column C)" of an index in `buffer`, as `JSON.parse` says it of the whole text. */
  private where(index: number): string {
    let line = this.lines + 1
    let lineStart = this.lineStart
    const { buffer } = this
    for (let at = buffer.indexOf('\n'); at >= 0 && at < index; at = buffer.indexOf('\n', at + 1)) {
      line++
      lineStart = this.offset + at + 1
    }
    const position = this.offset + index
    return `position ${position} (line ${line} column ${position - lineStart + 1})`
  }
}
