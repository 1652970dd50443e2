import { main } from '#cli/main.ts'
import { REPO_ROOT } from '../shared/contract-fixtures.ts'

export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

/** Runs the CLI in-process, as if from the repository root unless told otherwise, capturing what it prints. */
export async function runCli(argv: string[], cwd = REPO_ROOT): Promise<CliRun> {
  const run = { code: -1, stdout: '', stderr: '' }
  run.code = await main(argv, {
    stdout: { write: (text: string) => (run.stdout += text) },
    stderr: { write: (text: string) => (run.stderr += text) },
    cwd,
  })
  return run
}
