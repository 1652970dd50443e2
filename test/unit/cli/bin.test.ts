import { spawnSync } from 'node:child_process'
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
