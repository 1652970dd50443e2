import { writeSync } from 'node:fs'

/**
 * Text appended to an open file through a megabyte of bytes, synchronously: each text is encoded
 * straight into the buffer, so no long string is ever joined (each one would be garbage the size
 * of the buffer: collecting them was a third of `convert`'s time), and the file is written a
 * megabyte a call. Synchronous, as nothing else runs meanwhile.
 */

const BUFFER_BYTES = 1024 * 1024

export class BufferedFile {
  readonly fd: number
  private readonly bytes = Buffer.allocUnsafe(BUFFER_BYTES)
  private used = 0
  /** Bytes appended so far, written out or not: where the next text starts. */
  size = 0

  constructor(fd: number) {
    this.fd = fd
  }

  /** Appends `text`; returns how many bytes it takes. */
  write(text: string): number {
    // A UTF-16 unit never takes more than three bytes of UTF-8.
    const most = text.length * 3
    if (this.used + most > BUFFER_BYTES) this.flush()
    let length: number
    if (most > BUFFER_BYTES) {
      const bytes = Buffer.from(text)
      writeAll(this.fd, bytes, bytes.length)
      length = bytes.length
    } else {
      length = this.bytes.write(text, this.used)
      this.used += length
    }
    this.size += length
    return length
  }

  /** Appends bytes as they are (a workbook made whole). */
  writeBytes(bytes: Uint8Array): void {
    this.flush()
    writeAll(this.fd, bytes, bytes.length)
    this.size += bytes.length
  }

  /** Writes out what the buffer holds. */
  flush(): void {
    writeAll(this.fd, this.bytes, this.used)
    this.used = 0
  }
}

/** A write may take fewer bytes than given (a nearly full disk): the rest goes until none is left or it fails. */
function writeAll(fd: number, bytes: Uint8Array, length: number) {
  for (let at = 0; at < length;) at += writeSync(fd, bytes, at, length - at)
}
