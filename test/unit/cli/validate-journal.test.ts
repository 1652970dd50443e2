import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '#cli/main.ts'
import type { DryRunJson } from '#cli/push/push-dry-run.ts'
import type { ValidationSummary } from '#cli/validation-report.ts'
import type { Sandbox } from '#node/sandbox/server.ts'
import { fixture } from '../shared/contract-fixtures.ts'
import { pushHarness, type PushRun } from './push-harness.ts'

/**
 * `validate --journal` judges a file as a push to that journal's destination judges it: what it
 * calls sendable, push sends; what push holds back or leaves as an earlier push left it, it holds
 * back, with push's reasons and words. A tryout found it calling sendable (exit 0) a changed SKU
 * whose platform id is unknown and a SKU the service refused and that is unchanged since, which
 * push then held back (exit 1). Against a real sandbox on loopback.
 */

const TOKEN = 'validate-journal-token-7c2e'
const harness = pushHarness({ token: TOKEN, barcodePrefix: 'J' })
const { sandboxFor, push, skus } = harness

async function jsonFile(name: string, content: unknown): Promise<string> {
  await writeFile(join(harness.dir(), name), JSON.stringify(content))
  return name
}

async function validate(argv: string[]): Promise<PushRun> {
  const run = { code: -1, stdout: '', stderr: '' }
  run.code = await main(['validate', ...argv], {
    stdout: { write: (text: string) => (run.stdout += text) },
    stderr: { write: (text: string) => (run.stderr += text) },
    cwd: harness.dir(),
    env: { CATALOG_DESK_DATA_DIR: harness.dataDir() },
  })
  return run
}

const to = (sandbox: Sandbox) => ['--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN']

/** validate's holds and push --dry-run's, each as (index, reason, message). */
async function bothVerdicts(file: string, sandbox: Sandbox) {
  const journal = harness.journalOf(sandbox.url)
  const checked = await validate([file, '--journal', journal, '--json'])
  const dry = await push([file, ...to(sandbox), '--dry-run', '--json'])
  const summary = JSON.parse(checked.stdout) as ValidationSummary
  const dryRun = JSON.parse(dry.stdout) as DryRunJson
  return {
    checked,
    dry,
    summary,
    dryRun,
    holds: {
      validate: summary.holds?.map(({ index, reason, message }) => ({ index, reason, message })),
      push: dryRun.holds.map(({ index, reason, message }) => ({ index, reason, message })),
    },
  }
}

describe('validate --journal: the verdict of a push to that destination', () => {
  it('a changed SKU whose platform id is unknown is held back by both, for the same reason', async () => {
    const sandbox = await sandboxFor({ answerIds: false })
    const sent = skus(3)
    expect((await push([await jsonFile('sent.json', sent), ...to(sandbox)])).code).toBe(0)
    const changed = [{ ...sent[0]!, productName: 'Aviator, renamed' }, sent[1], sent[2]]
    const file = await jsonFile('changed.json', changed)

    const { checked, dry, summary, holds } = await bothVerdicts(file, sandbox)
    expect(checked.code).toBe(1)
    expect(dry.code).toBe(1)
    expect(summary).toMatchObject({ valid: 3, sendable: 2, heldBack: 1 })
    expect(holds.validate).toEqual(holds.push)
    expect(holds.validate).toEqual([
      {
        index: 0,
        reason: 'no-id',
        message: `Changed since it was created at ${sandbox.url}, but the platform's id of this SKU is unknown, so it cannot be updated: give it with --platform-has LIST, a list with a barcode column and an id column (_id, id or skuId)`,
      },
    ])
    const text = await validate([file, '--journal', harness.journalOf(sandbox.url)])
    expect(text.stdout).toContain(
      "3 SKUs valid; 2 sendable; 1 held back: changed, with the platform's id unknown (1)",
    )
  })

  it('a SKU the service refused, unchanged since, is left as it stands by both', async () => {
    const sandbox = await sandboxFor()
    const sent = skus(3)
    await fetch(`${sandbox.url}/__sandbox/rejected-barcodes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([sent[1]!.barcode]),
    })
    const file = await jsonFile('some-refused.json', sent)
    expect((await push([file, ...to(sandbox)])).code).toBe(1)
    await fetch(`${sandbox.url}/__sandbox/rejected-barcodes`, { method: 'DELETE' })

    const { checked, summary, holds } = await bothVerdicts(file, sandbox)
    expect(checked.code).toBe(1)
    expect(summary).toMatchObject({ valid: 3, sendable: 2, heldBack: 1 })
    expect(holds.validate).toEqual(holds.push)
    expect(holds.validate).toEqual([
      {
        index: 1,
        reason: 'standing',
        message: expect.stringMatching(/^A creation an earlier push sent is rejected/),
      },
    ])
  })

  it('an app changed since it was created is held back by both: the service has no update for apps', async () => {
    const sandbox = await sandboxFor()
    const request = fixture('app-create-request.json') as Record<string, unknown>
    expect((await push([await jsonFile('app.json', request), ...to(sandbox)])).code).toBe(0)
    const apps = harness.journalOf(sandbox.url).replace(/\.skus\.jsonl$/, '.apps.jsonl')
    const same = await validate(['app.json', '--journal', apps])
    expect(same.code).toBe(0)
    expect(same.stdout).toContain('1 app valid; 1 sendable; 0 held back')

    const changed = await jsonFile('app-changed.json', { ...request, sdkVersion: '9.9.9' })
    const run = await validate([changed, '--journal', apps])
    const dry = JSON.parse(
      (await push([changed, ...to(sandbox), '--dry-run', '--json'])).stdout,
    ) as DryRunJson
    expect(run.code).toBe(1)
    expect(run.stdout).toContain(
      '1 app valid; 0 sendable; 1 held back: changed, and the service cannot update them (1)\n  Changed since it was created at',
    )
    const summary = JSON.parse(
      (await validate([changed, '--journal', apps, '--json'])).stdout,
    ) as ValidationSummary
    expect(summary).toMatchObject({ kind: 'app-request', valid: 1, sendable: 0, heldBack: 1 })
    expect(summary.holds).toEqual(dry.holds.map(({ index, reason, message }) => ({ index, reason, message })))
    expect(summary.holds).toMatchObject([{ index: 0, reason: 'no-update' }])
  })

  it('a journal of apps named for a file of SKUs is refused in words that fit validate', async () => {
    const sandbox = await sandboxFor()
    const app = await jsonFile(
      'app.json',
      (await import('../shared/contract-fixtures.ts')).fixture('app-create-request.json'),
    )
    expect((await push([app, ...to(sandbox)])).code).toBe(0)
    const apps = harness.journalOf(sandbox.url).replace(/\.skus\.jsonl$/, '.apps.jsonl')
    const file = await jsonFile('skus.json', skus(1))
    const run = await validate([file, '--journal', apps])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`${apps} is a journal of apps sent to ${sandbox.url}, not of SKUs.`)
  })
})
