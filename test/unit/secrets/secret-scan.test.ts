import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { filesContaining } from './secret-scan.ts'

// The "never in plain text" tests are only as good as this scan: it must find what it looks for.
describe('filesContaining', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'catalog-desk-scan-'))
  })
  afterEach(() => rm(dir, { recursive: true, force: true }))

  it('finds a secret written plainly, base64-encoded or as UTF-16, in nested directories', async () => {
    const secret = 'cd-test-secret-0123456789'
    await mkdir(join(dir, 'a', 'b'), { recursive: true })
    await writeFile(join(dir, 'plain.json'), JSON.stringify({ token: secret }))
    await writeFile(
      join(dir, 'a', 'b', 'encoded.txt'),
      `Authorization: ${Buffer.from(secret).toString('base64')}`,
    )
    await writeFile(join(dir, 'a', 'wide.bin'), Buffer.from(secret, 'utf16le'))
    await writeFile(join(dir, 'clean.txt'), 'nothing here')

    const scan = await filesContaining([dir, join(dir, 'missing')], secret)
    expect(scan.found.sort()).toEqual(
      [join(dir, 'a', 'b', 'encoded.txt'), join(dir, 'a', 'wide.bin'), join(dir, 'plain.json')].sort(),
    )
    expect(scan.scanned).toHaveLength(4)
  })
})
