import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openPreferences, PREFERENCES_FILE_NAME } from '#node/preferences.ts'
import { DEFAULT_BUDGETS } from '#shared/asset-checks/budgets.ts'

let dir = ''
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-desk-preferences-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

const file = () => join(dir, PREFERENCES_FILE_NAME)
const onDisk = async () => JSON.parse(await readFile(file(), 'utf8')) as unknown
const UPDATES = { automatic: true, feedAddress: '' }
const DEFAULTS = { allowLocalAddresses: false, assetBudgets: DEFAULT_BUDGETS, updates: UPDATES }

describe('preferences', () => {
  it('start with local addresses refused and the default budgets, and keep a change across a restart', async () => {
    const first = await openPreferences(dir)
    expect(first.current()).toEqual(DEFAULTS)
    await first.update({ allowLocalAddresses: true })
    expect((await openPreferences(dir)).current()).toEqual({ ...DEFAULTS, allowLocalAddresses: true })
  })

  it.each([
    ['not JSON', '{"allowLocalAddresses": tr'],
    ['not an object', '[true]'],
    ['a value that is not true', '{"allowLocalAddresses": "yes"}'],
  ])('a file holding %s counts as the defaults, and the next change replaces it', async (_case, text) => {
    await writeFile(file(), text)
    const preferences = await openPreferences(dir)
    expect(preferences.current()).toEqual(DEFAULTS)
    await preferences.update({ allowLocalAddresses: true })
    expect(await onDisk()).toEqual({
      format: 1,
      allowLocalAddresses: true,
      assetBudgets: {},
      updates: UPDATES,
    })
  })
})

describe('asset budgets in the preferences', () => {
  const triangles = { recommended: 1, maximum: 200_000 }

  it('keep a change across a restart, and write only the budgets that differ from their defaults, each whole', async () => {
    const first = await openPreferences(dir)
    const budgets = { ...DEFAULT_BUDGETS, triangles, modelBytes: { ...DEFAULT_BUDGETS.modelBytes } }
    await expect(first.update({ assetBudgets: budgets })).resolves.toEqual({
      ...DEFAULTS,
      assetBudgets: budgets,
    })
    expect(await onDisk()).toEqual({
      format: 1,
      allowLocalAddresses: false,
      assetBudgets: { triangles },
      updates: UPDATES,
    })
    expect((await openPreferences(dir)).current().assetBudgets).toEqual(budgets)
  })

  it('restored to the defaults, store none, so a later version’s defaults reach them', async () => {
    const preferences = await openPreferences(dir)
    await preferences.update({ assetBudgets: { ...DEFAULT_BUDGETS, triangles } })
    await preferences.update({ assetBudgets: structuredClone(DEFAULT_BUDGETS) })
    expect(await onDisk()).toEqual({
      format: 1,
      allowLocalAddresses: false,
      assetBudgets: {},
      updates: UPDATES,
    })
    expect((await openPreferences(dir)).current()).toEqual(DEFAULTS)
  })

  it('read from a file that names some take the defaults for the others (a file from before has none)', async () => {
    await writeFile(
      file(),
      JSON.stringify({ format: 1, allowLocalAddresses: true, assetBudgets: { triangles } }),
    )
    expect((await openPreferences(dir)).current()).toEqual({
      allowLocalAddresses: true,
      assetBudgets: { ...DEFAULT_BUDGETS, triangles },
      updates: UPDATES,
    })
    await writeFile(file(), JSON.stringify({ format: 1, allowLocalAddresses: true }))
    expect((await openPreferences(dir)).current()).toEqual({ ...DEFAULTS, allowLocalAddresses: true })
  })

  it.each([
    ['not an object', 'many'],
    ['a list', [triangles]],
    ['a budget that does not exist', { triangles, polygons: triangles }],
    ['a maximum below the recommended', { triangles: { recommended: 500, maximum: 100 } }],
    ['a figure that is not a whole number', { drawCalls: { recommended: 2.5, maximum: 100 } }],
    ['a figure below 1', { textureSize: { recommended: 0, maximum: 4096 } }],
    ['a figure in words', { modelBytes: { recommended: '15 MB', maximum: 50 } }],
    ['a budget that is a number', { pictureSize: 4096 }],
  ])(
    'holding %s, all go back to the defaults; the other setting is still read, and the app starts',
    async (_case, assetBudgets) => {
      await writeFile(file(), JSON.stringify({ format: 1, allowLocalAddresses: true, assetBudgets }))
      const preferences = await openPreferences(dir)
      expect(preferences.current()).toEqual({ ...DEFAULTS, allowLocalAddresses: true })
      // The next change writes a file that reads back.
      await preferences.update({ assetBudgets: { ...DEFAULT_BUDGETS, triangles } })
      expect((await openPreferences(dir)).current().assetBudgets.triangles).toEqual(triangles)
    },
  )

  it('are the caller’s own copy: changing what current() gave changes nothing kept', async () => {
    const preferences = await openPreferences(dir)
    preferences.current().assetBudgets.triangles.recommended = 7
    expect(preferences.current().assetBudgets).toEqual(DEFAULT_BUDGETS)
    expect(DEFAULT_BUDGETS.triangles.recommended).toBe(100_000)
  })
})

describe('update settings in the preferences', () => {
  it('check automatically by default, keep a feed address and the last check across a restart', async () => {
    const first = await openPreferences(dir)
    expect(first.current().updates).toEqual(UPDATES)
    const updates = {
      automatic: false,
      feedAddress: 'https://updates.example.com/desk',
      lastCheckAt: 1_700_000_000_000,
    }
    await first.update({ updates })
    expect(await onDisk()).toMatchObject({ format: 1, updates })
    expect((await openPreferences(dir)).current().updates).toEqual(updates)
  })

  it.each([
    ['an address main would not ask', { feedAddress: 'http://updates.example.com/' }, UPDATES],
    ['an address with a password', { feedAddress: 'https://me:secret@updates.example.com' }, UPDATES],
    ['"automatic" that is not false', { automatic: 'no' }, UPDATES],
    ['a last check that is not a time', { lastCheckAt: 'yesterday' }, UPDATES],
    [
      'a trailing slash',
      { feedAddress: 'https://updates.example.com/desk/' },
      { ...UPDATES, feedAddress: 'https://updates.example.com/desk' },
    ],
  ])('a file holding %s is read setting by setting', async (_case, updates, expected) => {
    await writeFile(file(), JSON.stringify({ format: 1, allowLocalAddresses: true, updates }))
    const preferences = await openPreferences(dir)
    expect(preferences.current()).toEqual({ ...DEFAULTS, allowLocalAddresses: true, updates: expected })
  })
})
