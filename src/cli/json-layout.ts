import type { Output } from './io.ts'
import { Spool } from './spool.ts'

/**
 * JSON written a piece at a time exactly as `JSON.stringify(document, null, 2)` writes it whole,
 * so a streamed report or bulk request is byte for byte what the whole-file one was.
 */

/**
 * A JSON value as `JSON.stringify(…, null, 2)` writes it `depth` levels down, its first line
 * indented too. Made by `JSON.stringify` itself, of the value wrapped in `depth` lists
 * whose lines are then cut off: indenting each line afterwards made a copy of every SKU's text.
 */
export function jsonAt(value: unknown, depth: number): string {
  let wrapped: unknown = value
  for (let level = 0; level < depth; level++) wrapped = [wrapped]
  // The wrapping lists' lines before and after the value: "[\n", "  [\n", … and "\n  ]", "\n]".
  const cut = depth * (depth + 1)
  const text = JSON.stringify(wrapped, null, 2)
  return text.slice(cut, text.length - cut)
}

/**
 * A list that is a member of the document's top-level object, its items written as they come
 * (into a spool) and the list written in place at the end.
 */
export class JsonListSpool {
  private readonly spool = new Spool()
  private count = 0

  add(value: unknown): void {
    this.spool.write((this.count++ === 0 ? '' : ',\n') + jsonAt(value, 2))
  }

  /** `"key": [ … ]` two spaces in, `first` before the items added. */
  write(out: Output, key: string, first: readonly unknown[] = []): void {
    if (first.length + this.count === 0) {
      out.write(`  ${JSON.stringify(key)}: []`)
      return
    }
    out.write(`  ${JSON.stringify(key)}: [\n`)
    out.write(first.map((value) => jsonAt(value, 2)).join(',\n'))
    if (first.length > 0 && this.count > 0) out.write(',\n')
    for (const chunk of this.spool.chunks()) out.write(chunk)
    out.write('\n  ]')
  }

  close(): void {
    this.spool.close()
  }
}

/** `"key": value` of the top-level object, two spaces in. */
export function jsonMember(key: string, value: unknown): string {
  return `  ${JSON.stringify(key)}: ${jsonAt(value, 1).slice(2)}`
}
