import { describe, expect, it } from 'vitest'
import { formatBytes } from '#shared/byte-size.ts'
import { counted } from '#shared/counted.ts'
import { counted as pageCounted } from '#renderer/words/counting.ts'

// One way of saying a count and one of saying a size, for the CLI, the sandbox and the page: the
// CLI's counts had no thousands separator where the page's had one ("3001 SKUs" beside
// "3,001 drafts"), and the sync page said "512 B" / "1.0 KB" where the rest of the app says
// "512 bytes" / "1 KB".

describe('a count with its noun', () => {
  it('takes an -s but for one, with its thousands separated', () => {
    expect(counted(1, 'SKU')).toBe('1 SKU')
    expect(counted(0, 'SKU')).toBe('0 SKUs')
    expect(counted(3001, 'SKU')).toBe('3,001 SKUs')
  })

  it('says its number as it is told to: the page, in the person’s language', () => {
    expect(counted(3001, 'row', (n) => `#${n}`)).toBe('#3001 rows')
    expect(pageCounted(3001, 'draft')).toBe(`${new Intl.NumberFormat().format(3001)} drafts`)
  })
})

describe('a size', () => {
  it('in bytes below a kilobyte, then KB and MB with at most one decimal', () => {
    expect(formatBytes(512)).toBe('512 bytes')
    expect(formatBytes(1024)).toBe('1 KB')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(1024 * 1024)).toBe('1 MB')
  })
})
