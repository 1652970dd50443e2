import { closeSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BufferedFile } from './buffered-file.ts'

/**
 * Text written while a file is read and read back once at the end, in order: what a report or an
 * output must hold back until something known only at the end (the counts, the notes, a sheet's
 * columns) is written first. Up to a megabyte stays in memory, which is every report of a file
 * people check by hand; beyond that it goes to a temporary file, so a million rows' problems cost
 * disk, not memory.
 */

/** Characters held in memory before the spool goes to a file. */
const HELD_CHARS = 1024 * 1024
/** Bytes read back at a time. */
const READ_BYTES = 1024 * 1024

export class Spool {
  private parts: string[] = []
  private held = 0
  private file: { dir: string; out: BufferedFile } | undefined

  write(text: string): void {
    if (this.file) {
      this.file.out.write(text)
      return
    }
    this.parts.push(text)
    this.held += text.length
    if (this.held < HELD_CHARS) return
    const dir = mkdtempSync(join(tmpdir(), 'catalog-desk-'))
    this.file = { dir, out: new BufferedFile(openSync(join(dir, 'spool'), 'w+')) }
    for (const part of this.parts) this.file.out.write(part)
    this.parts = []
  }

  /** The text written, a stretch at a time. */
  *chunks(): Generator<string> {
    if (!this.file) {
      yield this.parts.join('')
      return
    }
    const { out } = this.file
    out.flush()
    const decoder = new TextDecoder()
    const bytes = new Uint8Array(READ_BYTES)
    for (let at = 0; at < out.size;) {
      const read = readSync(out.fd, bytes, 0, READ_BYTES, at)
      at += read
      yield decoder.decode(bytes.subarray(0, read), { stream: true })
    }
    yield decoder.decode()
  }

  /** The text written, line by line (for text whose lines end in "\n"). */
  *lines(): Generator<string> {
    let rest = ''
    for (const chunk of this.chunks()) {
      const lines = (rest + chunk).split('\n')
      rest = lines.pop()!
      yield* lines
    }
    if (rest !== '') yield rest
  }

  /** Removes the temporary file, if there is one. */
  close(): void {
    if (!this.file) return
    closeSync(this.file.out.fd)
    rmSync(this.file.dir, { recursive: true, force: true })
    this.file = undefined
  }
}
