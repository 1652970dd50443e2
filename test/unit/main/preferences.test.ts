import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openPreferences, PREFERENCES_FILE_NAME } from '#node/preferences.ts'

let dir = ''
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-desk-preferences-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

describe('preferences', () => {
  it('start with local addresses refused, and keep a change across a restart', async () => {
    const first = await openPreferences(dir)
    expect(first.current()).toEqual({ allowLocalAddresses: false })
    await first.update({ allowLocalAddresses: true })
    expect((await openPreferences(dir)).current()).toEqual({ allowLocalAddresses: true })
  })

  it.each([
    ['not JSON', '{"allowLocalAddresses": tr'],
    ['not an object', '[true]'],
    ['a value that is not true', '{"allowLocalAddresses": "yes"}'],
  ])('a file holding %s counts as the defaults, and the next change replaces it', async (_case, text) => {
    await writeFile(join(dir, PREFERENCES_FILE_NAME), text)
    const preferences = await openPreferences(dir)
    expect(preferences.current()).toEqual({ allowLocalAddresses: false })
    await preferences.update({ allowLocalAddresses: true })
    expect(JSON.parse(await readFile(join(dir, PREFERENCES_FILE_NAME), 'utf8'))).toEqual({
      format: 1,
      allowLocalAddresses: true,
    })
  })
})
