import { SheetFileError } from './errors.ts'
import { thousands } from './places.ts'

/**
 * Bytes of a text file as text, chunk by chunk, refusing what is not text: binary files (a NUL byte
 * or mostly control bytes in the first KB, such as an XLSX renamed .csv) and bytes that are not
 * UTF-8 (a CSV saved as "ANSI"/Windows-1252: guessing its encoding would turn "é" into something
 * else without a word). A UTF-8 byte order mark is dropped; UTF-16 with its byte order mark (Excel's
 * "Unicode text") is read as such.
 */
export interface TextChunk {
  text: string
  /** Bytes (or, for text input, characters) read so far, and in all. */
  bytes: number
  total: number
  last: boolean
}

const SNIFF_BYTES = 1024

export function looksBinary(sample: ArrayLike<number>): boolean {
  const length = Math.min(sample.length, SNIFF_BYTES)
  let control = 0
  for (let i = 0; i < length; i++) {
    const code = sample[i]!
    if (code === 0) return true
    // Tab, line feed, form feed and carriage return are text; other C0 controls are not.
    if (code < 32 && code !== 9 && code !== 10 && code !== 12 && code !== 13) control++
  }
  return length > 0 && control / length > 0.1
}

const BINARY_MESSAGE =
  'The file is not text: it looks like a binary file (a workbook or an image). Choose a CSV, an XLSX or a JSON file.'

function codes(text: string): number[] {
  const out: number[] = []
  for (let i = 0; i < Math.min(text.length, SNIFF_BYTES); i++) out.push(text.charCodeAt(i))
  return out
}

export async function* textChunks(
  input: string | Blob,
  chunkBytes: number,
  signal?: AbortSignal,
): AsyncGenerator<TextChunk> {
  if (typeof input === 'string') {
    const text = input.startsWith('\uFEFF') ? input.slice(1) : input
    if (looksBinary(codes(text))) throw new SheetFileError('binary', BINARY_MESSAGE)
    const total = text.length
    if (total === 0) yield { text: '', bytes: 0, total, last: true }
    for (let at = 0; at < total; at += chunkBytes) {
      signal?.throwIfAborted()
      const end = Math.min(total, at + chunkBytes)
      yield { text: text.slice(at, end), bytes: end, total, last: end >= total }
    }
    return
  }
  const total = input.size
  const head = new Uint8Array(await input.slice(0, 4).arrayBuffer())
  let encoding = 'utf-8'
  if (head[0] === 0xff && head[1] === 0xfe) encoding = 'utf-16le'
  else if (head[0] === 0xfe && head[1] === 0xff) encoding = 'utf-16be'
  const decoder = new TextDecoder(encoding, { fatal: true })
  /** Lines read so far, so an invalid byte is said by its line. */
  let lines = 0
  if (total === 0) yield { text: '', bytes: 0, total, last: true }
  for (let at = 0; at < total; at += chunkBytes) {
    signal?.throwIfAborted()
    const end = Math.min(total, at + chunkBytes)
    const bytes = new Uint8Array(await input.slice(at, end).arrayBuffer())
    if (at === 0 && encoding === 'utf-8' && looksBinary(bytes))
      throw new SheetFileError('binary', BINARY_MESSAGE)
    let text: string
    try {
      text = decoder.decode(bytes, { stream: end < total })
    } catch {
      throw new SheetFileError('not-utf8', notUtf8At(bytes, at, end, lines))
    }
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++
    yield { text, bytes: end, total, last: end >= total }
  }
}

/**
 * Where the first byte UTF-8 cannot read is, among `bytes` (the file's from `at`, `lines` lines
 * read before them), in words a person can find it by: its place, its line and the text around it
 * as Windows-1252 (Western European) reads it, most often what such a file is ("It´s").
 */
function notUtf8At(bytes: Uint8Array, at: number, end: number, lines: number): string {
  const advice = UTF8_ADVICE.csv
  const bad = firstInvalidUtf8(bytes)
  if (bad < 0) return `The file is not UTF-8 text (an invalid byte within bytes ${at + 1}–${end}). ${advice}`
  let line = lines + 1
  let lineStart = 0
  for (let i = 0; i < bad; i++) {
    if (bytes[i] !== 0x0a) continue
    line++
    lineStart = i + 1
  }
  const from = Math.max(lineStart, bad - 30)
  const near = new TextDecoder('windows-1252')
    .decode(bytes.subarray(from, bad + 20))
    .split(/[\r\n]/)[0]!
    .trim()
  const hex = bytes[bad]!.toString(16).toUpperCase().padStart(2, '0')
  return `The file is not UTF-8 text: byte ${thousands(at + bad + 1)} (line ${thousands(line)}) is 0x${hex}, in "${near}"; the file is likely in another encoding, such as Windows-1252. ${advice}`
}

/**
 * The first byte of `bytes` that does not begin or continue a UTF-8 character, or -1 (a character
 * cut by the end of `bytes` is not judged; the bytes continuing one cut by their start are skipped).
 */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0
  while (i < 3 && i < bytes.length && (bytes[i]! & 0xc0) === 0x80) i++
  while (i < bytes.length) {
    const byte = bytes[i]!
    const follow =
      byte < 0x80
        ? 0
        : byte >= 0xc2 && byte <= 0xdf
          ? 1
          : byte >= 0xe0 && byte <= 0xef
            ? 2
            : byte >= 0xf0 && byte <= 0xf4
              ? 3
              : -1
    if (follow < 0) return i
    if (i + follow >= bytes.length) return -1
    for (let k = 1; k <= follow; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i
    i += follow + 1
  }
  return -1
}

/** How to make a file UTF-8, by what it is: a spreadsheet app saves CSV; JSON and XML are re-encoded. */
const UTF8_ADVICE = {
  csv: 'Save it as "CSV UTF-8" in your spreadsheet app, or re-encode it as UTF-8.',
  json: 'Re-encode it as UTF-8 (most editors offer it under "Save with encoding").',
  xml: 'Have the feed written as UTF-8, or re-encode it as UTF-8.',
}

type TextKind = keyof typeof UTF8_ADVICE

/** What is said of bytes that are not UTF-8, with the advice for the kind of file. */
export function notUtf8Message(kind: TextKind): string {
  return `The file is not UTF-8 text. ${UTF8_ADVICE[kind]}`
}

/**
 * Whole bytes as text, with the same checks; `kind` picks the advice when they are not UTF-8.
 * Only a decoding error (a TypeError, in every engine) means the bytes are not UTF-8: bytes that
 * would make a longer text than the engine's longest string (about 512 million characters) are
 * refused as too large to read whole, never called "not UTF-8".
 */
export function decodeText(bytes: Uint8Array, kind: TextKind = 'csv'): string {
  let encoding = 'utf-8'
  if (bytes[0] === 0xff && bytes[1] === 0xfe) encoding = 'utf-16le'
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) encoding = 'utf-16be'
  if (encoding === 'utf-8' && looksBinary(bytes)) throw new SheetFileError('binary', BINARY_MESSAGE)
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes)
  } catch (error) {
    if (error instanceof TypeError) throw new SheetFileError('not-utf8', notUtf8Message(kind))
    throw new SheetFileError(
      'too-large',
      `The file is too large to be read whole: ${(bytes.length / 1024 / 1024).toFixed(0)} MB of text is more than the longest text this program can hold (about 512 million characters).`,
    )
  }
}
