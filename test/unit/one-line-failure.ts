import { expect } from 'vitest'

/**
 * The message `promise` rejects with, after checking it is an error of `kind` and says what to do
 * in one line (a person reads it in a terminal or a test report, not a stack).
 */
export async function oneLineFailure(
  promise: Promise<unknown>,
  kind: new (...args: never[]) => Error,
): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(kind)
  const message = (error as Error).message
  expect(message).not.toContain('\n')
  return message
}
