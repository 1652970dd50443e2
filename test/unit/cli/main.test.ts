import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../shared/contract-fixtures.ts'
import { runCli } from './run-cli.ts'

describe('catalog-desk', () => {
  it.each([['--help'], ['-h'], ['help']])('%s prints the usage and exits 0', async (flag) => {
    const run = await runCli([flag])
    expect(run.code).toBe(0)
    expect(run.stderr).toBe('')
    expect(run.stdout).toMatch(/^Usage: catalog-desk <command> \[options\]/)
    expect(run.stdout).toContain('validate FILE [--json]')
    expect(run.stdout).toContain('schema [--out DIR]')
  })

  it.each([
    [
      ['validate', '--help'],
      'Usage: catalog-desk validate FILE [--json] [--all] [--require FIELDS | --profile NAME]',
    ],
    [
      ['validate', '-h', 'ignored.json'],
      'Usage: catalog-desk validate FILE [--json] [--all] [--require FIELDS | --profile NAME]',
    ],
    [
      ['help', 'validate'],
      'Usage: catalog-desk validate FILE [--json] [--all] [--require FIELDS | --profile NAME]',
    ],
    [['schema', '--help'], 'Usage: catalog-desk schema [--out DIR]'],
  ])('%j prints that command’s usage and exits 0', async (argv, first) => {
    const run = await runCli(argv)
    expect(run.code).toBe(0)
    expect(run.stdout.split('\n')[0]).toBe(first)
  })

  it('the validate usage documents the exit statuses and the --json shape', async () => {
    const { stdout } = await runCli(['validate', '--help'])
    expect(stdout).toContain(
      'Exit status: 0 every SKU valid and sendable (warnings allowed), 1 a SKU invalid or held back',
    )
    expect(stdout).toContain('{kind, items, valid, invalid, sendable, heldBack,')
    expect(stdout).toContain('errors: [{index, path, message}], warnings: [...],')
    expect(stdout).toContain('holds: [{index, reason, message}], distinct, repeated: [{indexes}],')
  })

  it('no command prints the usage to stderr and exits 2', async () => {
    const run = await runCli([])
    expect(run).toMatchObject({ code: 2, stdout: '' })
    expect(run.stderr).toMatch(/^Usage: catalog-desk/)
  })

  it.each([
    [['lint', 'a.json'], "catalog-desk: Unknown command 'lint'."],
    [['toString'], "catalog-desk: Unknown command 'toString'."],
    [['help', 'lint'], "catalog-desk: Unknown command 'lint'."],
    [['--json'], "catalog-desk: Unknown option '--json'."],
  ])('%j is bad usage: exit 2', async (argv, message) => {
    const run = await runCli(argv)
    expect(run).toEqual({ code: 2, stdout: '', stderr: `${message}\nRun "catalog-desk --help" for usage.\n` })
  })

  it.each(['--version', '-v'])('%s prints the package version', async (option) => {
    const { version } = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      version: string
    }
    const run = await runCli([option])
    expect(run).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' })
  })
})
