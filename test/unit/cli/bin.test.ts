import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../shared/contract-fixtures.ts'

// The in-process tests cover the commands; this one proves the executable wiring end to end:
// the Node version check, type stripping, argv and the exit status. `npm run cli` runs it; the
// installed CLI shares its wiring (bin/run-cli.js) and is proven in installed-package.test.ts.
describe('scripts/cli.js', () => {
  it('runs validate as a real process and exits with its status', () => {
    const result = spawnSync(
      process.execPath,
      ['scripts/cli.js', 'validate', 'test/fixtures/invalid/sku-list-mixed.json'],
      { cwd: REPO_ROOT, encoding: 'utf8', timeout: 30_000 },
    )
    expect(result.stderr).toBe('')
    expect(result.status).toBe(1)
    expect(result.stdout).toContain(
      '[1] arEffect.envSettings.intensity: Intensity must be a number, not the text "high"\n',
    )
    expect(result.stdout.trimEnd().split('\n').slice(-2)).toEqual([
      '2 SKUs checked: 1 valid, 1 invalid, 3 warnings',
      '1 SKU valid; 1 sendable; 0 held back',
    ])
  })
})

describe('a reader that leaves early (`catalog-desk validate … --json | head`)', () => {
  it('ends the pipe quietly: no stack trace, and the command’s own exit status', async () => {
    // More than a pipe holds (64 KB), so the CLI is still writing when the reader has gone.
    const dir = await mkdtemp(join(tmpdir(), 'catalog-desk-pipe-'))
    const file = join(dir, 'skus.json')
    const skus = Array.from({ length: 3000 }, (_, n) => ({
      productName: `Frame ${n}`,
      barcode: `${1_000_000 + n}`,
    }))
    await writeFile(file, JSON.stringify(skus))
    try {
      const child = spawn(process.execPath, ['scripts/cli.js', 'validate', file, '--json'], {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stderr = ''
      child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text))
      // Like `head -c 50`: read the first piece, then close the pipe.
      const [first] = (await once(child.stdout, 'data')) as [Buffer]
      child.stdout.destroy()
      const [status] = (await once(child, 'close')) as [number | null]
      expect(first.toString('utf8')).toMatch(/^\{\n {2}"kind": "sku-list"/)
      expect(stderr).toBe('')
      // Held back (no category, this check's default), as the whole run says.
      expect(status).toBe(1)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
