import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createFacePhotoStore } from '#node/face-photos.ts'
import { MAX_FACE_PHOTO_BYTES, MAX_FACE_PHOTOS } from '#shared/try-on/face-photo.ts'
import { resourcesDir } from './service-deps.ts'

/** A sample portrait's real bytes (resources/faces/), and others made to look like pictures. */
const jpeg = () => new Uint8Array(readFileSync(join(resourcesDir, 'faces/001.jpg')))
const png = () => new Uint8Array(readFileSync(join(resourcesDir, 'faces/luciano.png')))
const webp = () =>
  new Uint8Array([...Buffer.from('RIFF'), 30, 0, 0, 0, ...Buffer.from('WEBPVP8 '), ...new Array(22).fill(0)])

function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'catalog-desk-faces-'))
  onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }))
  let clock = 1_700_000_000_000
  const store = createFacePhotoStore({ dataDir, now: () => clock++ })
  return {
    store,
    dataDir,
    folder: join(dataDir, 'faces'),
    files: () => readdirSync(join(dataDir, 'faces')).sort(),
  }
}

describe('the face photo store', () => {
  it('keeps, lists, reads back and deletes photos, in the data folder only', async () => {
    const { store, dataDir, files } = setup()
    expect(await store.list()).toEqual([])

    const first = await store.add('me.jpg', jpeg())
    const second = await store.add('holiday.png', png())
    const third = await store.add('odd name.webp', webp())
    expect([first.type, second.type, third.type]).toEqual(['image/jpeg', 'image/png', 'image/webp'])
    expect(first).toMatchObject({ name: 'me.jpg', bytes: jpeg().byteLength })
    expect(await store.list()).toEqual([first, second, third])

    // Stored by main's id, never by the name picked; nothing outside faces/.
    expect(readdirSync(dataDir)).toEqual(['faces'])
    expect(files()).toEqual(
      [
        `${first.id}.jpg`,
        `${first.id}.json`,
        `${second.id}.png`,
        `${second.id}.json`,
        `${third.id}.json`,
        `${third.id}.webp`,
      ].sort(),
    )

    const read = await store.read(second.id)
    expect(read.photo).toEqual(second)
    expect(Buffer.from(read.bytes).equals(Buffer.from(png()))).toBe(true)

    await store.remove(second.id)
    expect(await store.list()).toEqual([first, third])
    expect(files()).not.toContain(`${second.id}.png`)
    await expect(store.read(second.id)).rejects.toThrow(/no face photo with the id .*deleted/)
  })

  it('goes by the bytes, not the name: a JPEG called .png is a JPEG', async () => {
    const { store, files } = setup()
    const photo = await store.add('really-a-jpeg.png', jpeg())
    expect(photo.type).toBe('image/jpeg')
    expect(files()).toContain(`${photo.id}.jpg`)
  })

  it.each([
    [
      'a text file',
      'notes.jpg',
      new TextEncoder().encode('hello, this is not a picture at all'),
      /"notes\.jpg" was not added: it is not a JPEG, PNG or WebP picture/,
    ],
    [
      'a GIF',
      'cat.gif',
      new TextEncoder().encode('GIF89a\x01\x00\x01\x00'),
      /"cat\.gif" was not added: it is not a JPEG, PNG or WebP/,
    ],
    [
      'an SVG',
      'face.svg',
      new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      /"face\.svg" was not added: it is not a JPEG/,
    ],
    [
      'a RIFF that is no WebP',
      'sound.webp',
      new Uint8Array([...Buffer.from('RIFF'), 4, 0, 0, 0, ...Buffer.from('WAVE')]),
      /"sound\.webp" was not added: it is not/,
    ],
    ['an empty file', 'empty.jpg', new Uint8Array(0), /"empty\.jpg" was not added: the file is empty/],
    [
      'a file over the limit',
      'huge.jpg',
      new Uint8Array(MAX_FACE_PHOTO_BYTES + 1).fill(0xff),
      /"huge\.jpg" was not added: it is 20971521 bytes, and a face photo may be at most 20 MB\./,
    ],
    [
      'a path climbing out',
      '../../escape.jpg',
      jpeg(),
      /"\.\.\/\.\.\/escape\.jpg" was not added: its name is a path, not a file name/,
    ],
    ['an absolute path', '/etc/passwd', jpeg(), /"\/etc\/passwd" was not added: its name is a path/],
    [
      'a Windows path',
      '..\\..\\evil.jpg',
      jpeg(),
      /"\.\.\\\.\.\\evil\.jpg" was not added: its name is a path/,
    ],
    ['dot-dot itself', '..', jpeg(), /"\.\." was not added: its name is a path/],
    [
      'a file far over the limit',
      'film.jpg',
      new Uint8Array(3 * MAX_FACE_PHOTO_BYTES).fill(0xff),
      /"film\.jpg" was not added: it is 60 MB, and a face photo may be at most 20 MB\./,
    ],
    [
      'a name with a newline',
      'me.jpg\nFace photo added: forged',
      jpeg(),
      /"me\.jpg\\u000aFace photo added: forged" was not added: its name holds control characters/,
    ],
    ['a nameless file', '  ', jpeg(), /was not added: the file has no name/],
  ])('refuses %s, naming the file, and keeps nothing', async (_what, name, bytes, message) => {
    const { store, dataDir } = setup()
    await expect(store.add(name, bytes)).rejects.toThrow(message)
    expect(await store.list()).toEqual([])
    expect(readdirSync(dataDir)).toEqual([])
  })

  it('never turns an id into a path', async () => {
    const { store } = setup()
    const kept = await store.add('me.jpg', jpeg())
    for (const id of ['../faces/x', '/etc/passwd', `${kept.id}/../${kept.id}`, '', 'a'.repeat(300)]) {
      await expect(store.read(id)).rejects.toThrow(/There is no face photo with the id/)
      await expect(store.remove(id)).rejects.toThrow(/There is no face photo with the id/)
    }
    expect(await store.list()).toEqual([kept])
  })

  it(`keeps at most ${MAX_FACE_PHOTOS} photos, and says so naming the file`, async () => {
    const { store } = setup()
    const bytes = webp()
    for (let i = 0; i < MAX_FACE_PHOTOS; i++) await store.add(`${i}.webp`, bytes)
    await expect(store.add('one-more.webp', bytes)).rejects.toThrow(
      `"one-more.webp" was not added: ${MAX_FACE_PHOTOS} photos are kept at most; delete one first.`,
    )
    expect(await store.list()).toHaveLength(MAX_FACE_PHOTOS)
  })

  it('lists only whole photos: a damaged record or a stray file is skipped, a picture changed on disk is refused', async () => {
    const { store, folder } = setup()
    const kept = await store.add('me.jpg', jpeg())
    const changed = await store.add('you.png', png())
    writeFileSync(join(folder, '11111111-2222-4333-8444-555555555555.json'), '{ half a rec')
    writeFileSync(join(folder, 'notes.txt'), 'not ours')
    writeFileSync(join(folder, `${changed.id}.png`), 'replaced by something else')
    expect(await store.list()).toEqual([kept, changed])
    await expect(store.read(changed.id)).rejects.toThrow('The face photo "you.png" was changed on disk')
  })
})
