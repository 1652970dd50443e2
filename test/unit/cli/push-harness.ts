import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import { main, type CliIo } from '#cli/main.ts'
import { defaultJournalPath } from '#cli/push/journal-path.ts'
import { startSandbox, type Sandbox, type SandboxOptions } from '#node/sandbox/server.ts'
import { fixture } from '../shared/contract-fixtures.ts'

export interface PushRun {
  code: number
  stdout: string
  stderr: string
}

/**
 * `catalog-desk push` in-process against real sandboxes on loopback, in a fresh folder per test:
 * the sandboxes started by a test are closed and the folder removed after it. The app's data
 * folder, where push keeps a destination's journal unless --journal names one, is `app-data` in
 * that folder (CATALOG_DESK_DATA_DIR), never the person's own.
 */
export function pushHarness({ token, barcodePrefix }: { token: string; barcodePrefix: string }) {
  let dir = ''
  const sandboxes: Sandbox[] = []

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'catalog-desk-push-'))
  })
  afterEach(async () => {
    await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()))
    await rm(dir, { recursive: true, force: true })
  })

  return {
    /** This test's folder: the command's working directory. */
    dir: () => dir,

    /** The app's data folder the command is given. */
    dataDir: () => join(dir, 'app-data'),

    /** Where push keeps the journal of SKUs sent to `url` when --journal names none. */
    journalOf: (url: string) => defaultJournalPath(join(dir, 'app-data'), url, 'skus'),

    async sandboxFor(options: Partial<SandboxOptions> = {}): Promise<Sandbox> {
      const sandbox = await startSandbox({ token, ...options })
      sandboxes.push(sandbox)
      return sandbox
    },

    /**
     * Runs the command; the token is in PUSH_TOKEN unless `env` says otherwise. `tokens` is the
     * keychain `--profile` reads (the OS keychain when absent).
     */
    async push(
      argv: string[],
      options: { env?: Record<string, string>; signal?: AbortSignal; tokens?: CliIo['tokens'] } = {},
    ): Promise<PushRun> {
      const run = { code: -1, stdout: '', stderr: '' }
      run.code = await main(['push', ...argv], {
        stdout: { write: (text: string) => (run.stdout += text) },
        stderr: { write: (text: string) => (run.stderr += text) },
        cwd: dir,
        env: options.env ?? { PUSH_TOKEN: token, CATALOG_DESK_DATA_DIR: join(dir, 'app-data') },
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.tokens ? { tokens: options.tokens } : {}),
      })
      return run
    },

    /** Valid SKUs from the contract's example, barcodes `PREFIX-0`, `PREFIX-1`, … */
    skus(count: number, prefix = barcodePrefix): Record<string, unknown>[] {
      const template = (fixture('bulk-upload-request.json') as { skus: Record<string, unknown>[] }).skus[0]!
      return Array.from({ length: count }, (_, i) => ({
        ...structuredClone(template),
        barcode: `${prefix}-${i}`,
      }))
    },
  }
}

/** The barcodes a sandbox stored, in the order it received them. */
export const barcodesIn = (sandbox: Sandbox) =>
  sandbox.received().skus.map((entry) => (entry.sku as { barcode: string }).barcode)
