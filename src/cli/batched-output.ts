import type { Output } from './io.ts'

/** Characters of text gathered before a write: one write for a few hundred results, not one each. */
const BATCH_CHARS = 64 * 1024

/** Text written to `out` in batches of about `BATCH_CHARS`, in order; `flush` writes what is left. */
export class BatchedOutput {
  private pending = ''
  private readonly out: Output

  constructor(out: Output) {
    this.out = out
  }

  write(text: string): void {
    this.pending += text
    if (this.pending.length >= BATCH_CHARS) this.flush()
  }

  flush(): void {
    if (this.pending === '') return
    this.out.write(this.pending)
    this.pending = ''
  }
}
