import { closeSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BufferedFile } from '../buffered-file.ts'

/**
 * The items of a push's input, kept in a temporary file as JSON with their offsets, so the engine
 * and the reports read any of them back, one at a time and in any order, without the command
 * holding a million SKUs: a push reads its input once (to check it, judge the gates and
 * fingerprint it) and sends from here.
 */
export class PayloadStore {
  private readonly dir = mkdtempSync(join(tmpdir(), 'catalog-desk-push-'))
  private readonly file = new BufferedFile(openSync(join(this.dir, 'items.json'), 'w+'))
  /** Where each item starts in the file, and where the next would. */
  private offsets = new Float64Array(1024)
  private count = 0

  /** Adds the next item, given as its JSON. */
  add(json: string): void {
    if (this.count + 1 >= this.offsets.length) {
      const grown = new Float64Array(this.offsets.length * 2)
      grown.set(this.offsets)
      this.offsets = grown
    }
    this.offsets[this.count] = this.file.size
    this.file.write(json)
    this.count++
    this.offsets[this.count] = this.file.size
  }

  /** The item at an index, as JSON.parse reads it back (undefined past the end). */
  at(index: number): unknown {
    if (!(index >= 0 && index < this.count)) return undefined
    this.file.flush()
    const start = this.offsets[index]!
    const bytes = Buffer.allocUnsafe(this.offsets[index + 1]! - start)
    readSync(this.file.fd, bytes, 0, bytes.length, start)
    return JSON.parse(bytes.toString('utf8')) as unknown
  }

  close(): void {
    closeSync(this.file.fd)
    rmSync(this.dir, { recursive: true, force: true })
  }
}
