import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { writeJsonAtomic } from '#node/atomic-json.ts'

describe('writeJsonAtomic', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'catalog-desk-atomic-'))
  })
  afterEach(() => rm(dir, { recursive: true, force: true }))

  it('replaces the file with the new JSON and leaves nothing else behind', async () => {
    const file = join(dir, 'settings.json')
    await writeJsonAtomic(file, { a: 1 })
    await writeJsonAtomic(file, { a: 2, b: [true] })
    await expect(readFile(file, 'utf8')).resolves.toBe('{\n  "a": 2,\n  "b": [\n    true\n  ]\n}\n')
    await expect(readdir(dir)).resolves.toEqual(['settings.json'])
    // Settings are the user's own business.
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600)
  })

  it('leaves the old file and no temporary file when the replacement fails', async () => {
    // A directory in the file's place: the final rename fails.
    const file = join(dir, 'settings.json')
    await mkdir(file)
    await expect(writeJsonAtomic(file, { a: 1 })).rejects.toThrow()
    await expect(readdir(dir)).resolves.toEqual(['settings.json'])
    expect((await stat(file)).isDirectory()).toBe(true)
  })
})
