import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { createHandlers } from '#main/handlers/index.ts'
import type { HandlerDeps } from '#main/handlers/types.ts'
import { createDispatcher } from '#main/ipc-dispatch.ts'
import type { FacePhoto, FacePhotoFile } from '#shared/try-on/face-photo.ts'
import { resourcesDir, serviceDeps } from './service-deps.ts'

// The try-on's channels through the contract, as the page calls them: every argument checked by
// the dispatcher first, then main's photo store (in the test's data folder) and the camera's grant.

function setup() {
  const deps = {
    ...serviceDeps(),
    appInfo: vi.fn<HandlerDeps['appInfo']>(),
    openExternal: vi.fn<HandlerDeps['openExternal']>(),
  }
  return { deps, dispatch: createDispatcher(createHandlers(deps)) }
}

const portrait = () => new Uint8Array(readFileSync(join(resourcesDir, 'faces/006.jpg')))

describe('the try-on channels', () => {
  it('add, list, read back and delete a photo, each written to main’s log', async () => {
    const { deps, dispatch } = setup()
    const photo = (await dispatch('addFacePhoto', ['me.jpg', portrait()])) as FacePhoto
    expect(await dispatch('listFacePhotos', [])).toEqual([photo])
    const file = (await dispatch('readFacePhoto', [photo.id])) as FacePhotoFile
    expect(file.photo).toEqual(photo)
    expect(file.bytes.byteLength).toBe(portrait().byteLength)
    await dispatch('deleteFacePhoto', [photo.id])
    expect(await dispatch('listFacePhotos', [])).toEqual([])
    const log = readFileSync(deps.log.file, 'utf8')
    expect(log).toContain(`Face photo added: [${photo.id}], image/jpeg`)
    expect(log).toContain(`Face photo deleted: [${photo.id}].`)
  })

  it('refuses what is not a photo or an id before the store sees it', async () => {
    const { dispatch } = setup()
    await expect(dispatch('addFacePhoto', ['me.jpg', 'not bytes'])).rejects.toThrow(
      /IPC addFacePhoto: invalid arguments: argument 2/,
    )
    await expect(dispatch('readFacePhoto', ['../../profiles.json'])).rejects.toThrow(
      /IPC readFacePhoto: invalid arguments: argument 1/,
    )
    await expect(dispatch('deleteFacePhoto', ['*'])).rejects.toThrow(/IPC deleteFacePhoto: invalid arguments/)
    // A file refused by the store is refused with its name.
    await expect(
      dispatch('addFacePhoto', ['notes.jpg', new TextEncoder().encode('plain text')]),
    ).rejects.toThrow('"notes.jpg" was not added: it is not a JPEG, PNG or WebP picture')
  })

  it('allowCameraOnce arms main’s camera grant, once a call', async () => {
    const { deps, dispatch } = setup()
    expect(deps.camera.allowOnce).not.toHaveBeenCalled()
    await dispatch('allowCameraOnce', [])
    expect(deps.camera.allowOnce).toHaveBeenCalledOnce()
    await expect(dispatch('allowCameraOnce', [true])).rejects.toThrow(/invalid arguments/)
    expect(deps.camera.allowOnce).toHaveBeenCalledOnce()
  })
})
