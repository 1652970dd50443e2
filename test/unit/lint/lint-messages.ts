import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { expect } from 'vitest'

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url))

let eslint: ESLint | undefined

/** ESLint with the project's own config, made once for the test file. */
export function projectEslint(): ESLint {
  eslint ??= new ESLint({ cwd: repoRoot })
  return eslint
}

/**
 * The messages of the rules in `rules` for `code` linted with the project's own ESLint config as
 * if it were the file at `filePath` (which decides the layer and the rules that apply). A snippet
 * that does not parse fails the test rather than passing with no message.
 */
export async function lintMessages(
  code: string,
  filePath: string,
  rules: ReadonlySet<string>,
): Promise<string[]> {
  const [result] = await projectEslint().lintText(code, { filePath })
  expect(result, `${filePath} was not linted`).toBeDefined()
  expect(
    result!.messages.filter((message) => message.fatal),
    'the snippet does not parse',
  ).toEqual([])
  return result!.messages
    .filter((message) => message.ruleId !== null && rules.has(message.ruleId))
    .map((message) => message.message)
}
