import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../shared/contract-fixtures.ts'

// `npm run lint` (so `npm test`) runs dependency-cruiser with the project's configuration over the
// whole tree; here the same configuration meets a cycle planted outside it.
const cli = join(REPO_ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs')

// Each test runs dependency-cruiser in a process of its own: as long as its spawn may take.
describe('the import cycle check', { timeout: 60_000 }, () => {
  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
    dir = undefined
  })

  function cruise(files: Record<string, string>) {
    dir = mkdtempSync(join(tmpdir(), 'catalog-desk-cycle-'))
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
    return spawnSync(process.execPath, [cli, '--config', '.dependency-cruiser.cjs', dir], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    })
  }

  it('fails on two modules that import each other, even for types only', () => {
    const run = cruise({
      'handlers.ts': `import type { Deps } from './service-handlers.ts'\nexport type Handlers = { deps: Deps }\n`,
      'service-handlers.ts': `import type { Handlers } from './handlers.ts'\nexport type Deps = { handlers?: Handlers }\n`,
    })
    expect(run.status).not.toBe(0)
    expect(run.stdout).toMatch(/no-cycles: .*handlers\.ts/)
    expect(run.stdout).toContain('service-handlers.ts')
  })

  it('passes the same modules once what both need is a module of its own', () => {
    const run = cruise({
      'types.ts': `export type Deps = { url: string }\nexport type Handlers = { deps: Deps }\n`,
      'handlers.ts': `import type { Handlers } from './types.ts'\nexport const none: Handlers[] = []\n`,
      'service-handlers.ts': `import type { Deps } from './types.ts'\nexport const deps: Deps[] = []\n`,
    })
    expect(run.stdout).toContain('no dependency violations found')
    expect(run.status).toBe(0)
  })
})
