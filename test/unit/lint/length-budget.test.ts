import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'
import {
  FUNCTION_LINES,
  LONG_FUNCTIONS,
  LONG_VUE_FILES,
  VUE_FILE_LINES,
} from '../../../lint/length-budget.js'
import { lintMessages } from './lint-messages.ts'

const budgetRules = new Set(['max-lines-per-function', 'max-lines'])
const budgetMessages = (code: string, filePath: string) => lintMessages(code, filePath, budgetRules)

/** A function of exactly `lines` lines of code, its opening and closing lines included. */
function functionOf(lines: number): string {
  const body = Array.from({ length: lines - 4 }, (_, index) => `  total += ${index}`)
  return ['export function planted(): number {', '  let total = 0', ...body, '  return total', '}'].join('\n')
}

/** A .vue file of exactly `lines` lines (template, script and style), no function in it. */
function vueFileOf(lines: number): string {
  const head = ['<script setup lang="ts">', "const label = 'planted'", '</script>', '', '<template>']
  const tail = ['</template>']
  const rows = Array.from({ length: lines - head.length - tail.length }, () => '  <p>{{ label }}</p>')
  return [...head, ...rows, ...tail].join('\n') + '\n'
}

// ESLint with the project's config takes seconds to load on a busy machine, the first lint pays it.
describe('the length budget', { timeout: 30_000 }, () => {
  it('fails on a planted 160-line function, in a .ts module and in a .vue script', async () => {
    expect(await budgetMessages(functionOf(160), 'src/renderer/src/stores/planted.ts')).toEqual([
      "Function 'planted' has too many lines (160). Maximum allowed is 80.",
    ])
    const vue = `<script setup lang="ts">\n${functionOf(160)}\n</script>\n\n<template><p /></template>\n`
    expect(await budgetMessages(vue, 'src/renderer/src/ui/Planted.vue')).toEqual([
      "Function 'planted' has too many lines (160). Maximum allowed is 80.",
    ])
  })

  it('counts lines of code: blank lines and comments are free', async () => {
    const roomy = functionOf(FUNCTION_LINES)
      .split('\n')
      .flatMap((line, index) => (index === 0 ? [line] : ['', `  // why line ${index}`, line]))
      .join('\n')
    expect(roomy.split('\n').length).toBeGreaterThan(2 * FUNCTION_LINES)
    expect(await budgetMessages(roomy, 'src/shared/planted.ts')).toEqual([])
    expect(await budgetMessages(functionOf(FUNCTION_LINES + 1), 'src/shared/planted.ts')).toEqual([
      "Function 'planted' has too many lines (81). Maximum allowed is 80.",
    ])
  })

  it('fails on a .vue file over 400 lines, counting every line', async () => {
    const path = 'src/renderer/src/features/planted/Planted.vue'
    expect(await budgetMessages(vueFileOf(VUE_FILE_LINES), path)).toEqual([])
    expect(await budgetMessages(vueFileOf(VUE_FILE_LINES + 1), path)).toEqual([
      'File has too many lines (401). Maximum allowed is 400.',
    ])
  })

  it('keeps a listed file from growing past its ceiling', async () => {
    const [file, ceiling] = Object.entries(LONG_FUNCTIONS)[0]!
    expect(await budgetMessages(functionOf(ceiling), file)).toEqual([])
    expect(await budgetMessages(functionOf(ceiling + 1), file)).toEqual([
      `Function 'planted' has too many lines (${ceiling + 1}). Maximum allowed is ${ceiling}.`,
    ])
  })

  // Each ceiling is the file's own longest function (or its lines): one line lower fails, so a
  // file split below its ceiling, or under the budget, makes this test ask for its line to go.
  it('lists no ceiling higher than its file needs', { timeout: 120_000 }, async () => {
    const lowered = new ESLint({
      cwd: fileURLToPath(new URL('../../..', import.meta.url)),
      overrideConfig: [
        ...Object.entries(LONG_FUNCTIONS).map(([file, lines]) => ({
          files: [file],
          rules: {
            'max-lines-per-function': ['error', { max: lines - 1, skipBlankLines: true, skipComments: true }],
          },
        })),
        ...Object.entries(LONG_VUE_FILES).map(([file, lines]) => ({
          files: [file],
          rules: { 'max-lines': ['error', { max: lines - 1 }] },
        })),
      ] as ESLint.Options['overrideConfig'],
    })
    const files = [...Object.keys(LONG_FUNCTIONS), ...Object.keys(LONG_VUE_FILES)]
    const results = await lowered.lintFiles(files)
    const over = new Set(
      results
        .filter((result) =>
          result.messages.some((message) => message.ruleId && budgetRules.has(message.ruleId)),
        )
        .map((result) => result.filePath),
    )
    const needless = results.map((result) => result.filePath).filter((path) => !over.has(path))
    expect(needless, 'listed in lint/length-budget.js with a ceiling higher than the file needs').toEqual([])
    expect(results).toHaveLength(files.length)
    expect(Math.min(...Object.values(LONG_FUNCTIONS))).toBeGreaterThan(FUNCTION_LINES)
    expect(Math.min(...Object.values(LONG_VUE_FILES))).toBeGreaterThan(VUE_FILE_LINES)
  })
})
