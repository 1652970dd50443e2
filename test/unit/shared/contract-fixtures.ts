import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** The contract's example payloads (test/fixtures) and small tools to make variants of them. */

export const FIXTURES_DIR = fileURLToPath(new URL('../../fixtures/', import.meta.url))
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/** The fixture files at the top of test/fixtures (not the invalid/ variants). */
export function fixtureNames(): string[] {
  return readdirSync(FIXTURES_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
}

/** A fresh parsed copy of a fixture, free to mutate. */
export function fixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(`${FIXTURES_DIR}${name}`, 'utf8')) as Record<string, unknown>
}

function segments(path: string): string[] {
  return path === '' ? [] : path.split('.')
}

function container(document: unknown, path: string[]): Record<string, unknown> {
  let current = document
  for (const key of path) {
    if (typeof current !== 'object' || current === null) throw new Error(`No "${key}" in the fixture`)
    current = (current as Record<string, unknown>)[key]
  }
  if (typeof current !== 'object' || current === null) throw new Error(`Nothing at ${path.join('.')}`)
  return current as Record<string, unknown>
}

/** The value at a dotted path (numeric segments index lists). */
export function getAt(document: unknown, path: string): unknown {
  const keys = segments(path)
  const last = keys.pop()
  return last === undefined ? document : container(document, keys)[last]
}

/** Sets the value at a dotted path whose parent exists. Assigning to a list index works as well. */
export function setAt<T>(document: T, path: string, value: unknown): T {
  const keys = segments(path)
  const last = keys.pop()
  if (last === undefined) throw new Error('setAt needs a path')
  container(document, keys)[last] = value
  return document
}

export function deleteAt<T>(document: T, path: string): T {
  const keys = segments(path)
  const last = keys.pop()
  if (last === undefined) throw new Error('deleteAt needs a path')
  delete container(document, keys)[last]
  return document
}

/** Freezes a value and everything in it, so a test fails loudly if anything writes to it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.values(value).forEach(deepFreeze)
    Object.freeze(value)
  }
  return value
}
