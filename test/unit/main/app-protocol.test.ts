import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appFileServer } from '#node/app-files.ts'
import {
  APP_PAGE_URL,
  APP_SCHEME_PRIVILEGES,
  appProtocolHandler,
  devServerThumbnails,
} from '#main/app-protocol.ts'
import { CONTENT_SECURITY_POLICY } from '#main/content-security-policy.ts'
import { thumbnailRoute } from '#node/thumbnail-route.ts'
import { resourcesDir } from './service-deps.ts'

// A built renderer in a temporary folder, with a secret beside it that must never be served.
let folder: string
let rendererDir: string
const INDEX = '<!doctype html><title>Catalog Desk</title>'
const SCRIPT = 'export const answer = 42\n'

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'catalog-desk-app-files-'))
  rendererDir = join(folder, 'renderer')
  await mkdir(join(rendererDir, 'assets', 'folder.js'), { recursive: true })
  await writeFile(join(rendererDir, 'index.html'), INDEX)
  await writeFile(join(rendererDir, 'assets', 'index-AbC123.js'), SCRIPT)
  await writeFile(join(rendererDir, 'assets', 'index-AbC123.css'), 'body { margin: 0 }')
  await writeFile(join(rendererDir, 'assets', 'notes.exe'), 'MZ')
  // Files the build copies under fixed names: a sample face and the face model's weights.
  await mkdir(join(rendererDir, 'faces'))
  await writeFile(join(rendererDir, 'faces', '001.jpg'), 'JFIF')
  await mkdir(join(rendererDir, 'face-model'))
  await writeFile(join(rendererDir, 'face-model', 'facemesh.bin'), 'weights')
  await writeFile(join(folder, 'secret.txt'), 'token')
  await writeFile(join(folder, 'secret.js'), 'token')
  // A link inside the renderer folder that leads out of it.
  await symlink(join(folder, 'secret.js'), join(rendererDir, 'assets', 'linked-out.js'))
})

afterAll(async () => {
  await rm(folder, { recursive: true, force: true })
})

const request = (url: string, method = 'GET') => new Request(url, { method })

/** Main's thumbnail route as a new user has it: nothing on this computer or the local network. */
const thumbnails = thumbnailRoute({
  policy: CONTENT_SECURITY_POLICY,
  allowLocalAddresses: () => false,
  resourcesDir,
})
const appProtocol = () => appProtocolHandler(rendererDir, thumbnails)

describe('the app protocol', () => {
  it('is a standard, secure scheme that module scripts and workers can load from', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({
      scheme: 'app',
      privileges: expect.objectContaining({ standard: true, secure: true, corsEnabled: true }),
    })
    // Nothing that would loosen the page's policy.
    expect(APP_SCHEME_PRIVILEGES.privileges).not.toHaveProperty('bypassCSP')
    expect(APP_SCHEME_PRIVILEGES.privileges).not.toHaveProperty('allowServiceWorkers')
  })

  it('serves the page at the address the window loads, with the policy and the type', async () => {
    const answer = await appProtocol()(request(APP_PAGE_URL))
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(answer.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY)
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await answer.text()).toBe(INDEX)
  })

  it('serves the build’s scripts as JavaScript, which module loading insists on', async () => {
    const answer = await appProtocol()(request('app://catalog-desk/assets/index-AbC123.js'))
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await answer.text()).toBe(SCRIPT)
  })

  it('answers other hosts of the scheme with a 404', async () => {
    const answer = await appProtocol()(request('app://elsewhere/index.html'))
    expect(answer.status).toBe(404)
  })

  it.each([
    ['the page', APP_PAGE_URL, 200],
    ['a script', 'app://catalog-desk/assets/index-AbC123.js', 200],
    ['a file that is not there', 'app://catalog-desk/assets/missing.js', 404],
    ['another host', 'app://elsewhere/index.html', 404],
    [
      'another host’s thumbnail path',
      'app://elsewhere/thumbnail?src=https%3A%2F%2Fcdn.example.com%2Fa.png',
      404,
    ],
    ['a thumbnail without a photo address', 'app://catalog-desk/thumbnail', 400],
    [
      'a thumbnail on this computer',
      'app://catalog-desk/thumbnail?src=https%3A%2F%2F127.0.0.1%3A9%2Fa.png',
      403,
    ],
  ])('answers %s with the policy and nosniff (%s: %i)', async (_what, url, status) => {
    const answer = await appProtocol()(request(url))
    expect(answer.status).toBe(status)
    // Any answer may be shown as a document: every one carries the page's policy, and no answer's
    // bytes are ever taken for another type than the one it says.
    expect(answer.headers.get('content-security-policy')).toContain(CONTENT_SECURITY_POLICY)
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('routes the thumbnail path of its own host to main’s route, and every other path to the files', async () => {
    const answer = await appProtocol()(
      request('app://catalog-desk/thumbnail?src=https%3A%2F%2F10.0.0.1%2Fa.png'),
    )
    expect(answer.status).toBe(403)
    expect(await answer.text()).toBe(
      'Not loaded: a local address (10.0.0.1). Settings can allow local addresses.',
    )
    // Only the exact path: a file named like it is a file (and there is none).
    expect((await appProtocol()(request('app://catalog-desk/thumbnail/x.png'))).status).toBe(404)
  })
})

describe('devServerThumbnails', () => {
  const DEV = 'http://localhost:5173'
  const answered: string[] = []
  const handler = devServerThumbnails(
    `${DEV}/`,
    async (asked) => (answered.push(`thumbnails ${asked.url}`), new Response('photo')),
    async (asked) => (answered.push(`passed on ${asked.url}`), new Response('file')),
  )

  it('answers the dev server’s thumbnail path itself, and passes every other request on', async () => {
    await handler(request(`${DEV}/thumbnail?src=x`))
    await handler(request(`${DEV}/src/main.ts`))
    // The same path of another origin is not the page's.
    await handler(request('http://localhost:8080/thumbnail?src=x'))
    expect(answered).toEqual([
      `thumbnails ${DEV}/thumbnail?src=x`,
      `passed on ${DEV}/src/main.ts`,
      'passed on http://localhost:8080/thumbnail?src=x',
    ])
  })
})

describe('appFileServer', () => {
  const serve = (path: string, method?: string) =>
    appFileServer(rendererDir, CONTENT_SECURITY_POLICY)(request(`http://127.0.0.1:5000${path}`, method))

  it.each([
    ['/', 'text/html; charset=utf-8'],
    ['/index.html', 'text/html; charset=utf-8'],
    ['/assets/index-AbC123.css', 'text/css; charset=utf-8'],
    ['/assets/index%2DAbC123.js', 'text/javascript; charset=utf-8'],
    ['/faces/001.jpg', 'image/jpeg'],
    ['/face-model/facemesh.bin', 'application/octet-stream'],
  ])('serves %s as %s', async (path, type) => {
    const answer = await serve(path)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe(type)
  })

  it.each([
    ['a file that is not there', '/assets/missing.js'],
    ['a folder, whatever its name says', '/assets/folder.js'],
    ['a kind of file the build never makes', '/assets/notes.exe'],
    ['a file beside the renderer, through an encoded ..', '/..%2fsecret.js'],
    ['a file beside the renderer, through encoded .. and a folder', '/assets/..%2f..%2fsecret.js'],
    ['a file beside the renderer, through dots the address itself resolves', '/%2e%2e/secret.js'],
    ['a file beside the renderer, through an encoded //..', '/%2F..%2Fsecret.js'],
    ['a file beside the renderer, through a link inside it', '/assets/linked-out.js'],
    ['a path with a NUL byte', '/index%00.html'],
    ['a path that does not decode', '/%E0%A4%A.js'],
  ])('answers %s with a 404 (%s)', async (_what, path) => {
    const answer = await serve(path)
    expect(answer.status).toBe(404)
    expect(await answer.text()).toBe('Not Found')
    // Error answers carry the policy too: a 404 is a document as well.
    expect(answer.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY)
  })

  it('lets hashed assets be kept, and the page and the fixed-name files never', async () => {
    expect((await serve('/index.html')).headers.get('cache-control')).toBe('no-store')
    expect((await serve('/faces/001.jpg')).headers.get('cache-control')).toBe('no-store')
    expect((await serve('/face-model/facemesh.bin')).headers.get('cache-control')).toBe('no-store')
    expect((await serve('/assets/index-AbC123.js')).headers.get('cache-control')).toBe(
      'max-age=31536000, immutable',
    )
  })

  it('answers HEAD with the headers and no body, and refuses other methods', async () => {
    const head = await serve('/index.html', 'HEAD')
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(INDEX)))
    expect(await head.text()).toBe('')

    const post = await serve('/index.html', 'POST')
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, HEAD')
  })
})
