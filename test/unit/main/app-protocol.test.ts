import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appFileServer } from '#node/app-files.ts'
import { APP_PAGE_URL, APP_SCHEME_PRIVILEGES, appProtocolHandler } from '#main/app-protocol.ts'
import { CONTENT_SECURITY_POLICY } from '#main/content-security-policy.ts'

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
  await writeFile(join(folder, 'secret.txt'), 'token')
  await writeFile(join(folder, 'secret.js'), 'token')
  // A link inside the renderer folder that leads out of it.
  await symlink(join(folder, 'secret.js'), join(rendererDir, 'assets', 'linked-out.js'))
})

afterAll(async () => {
  await rm(folder, { recursive: true, force: true })
})

const request = (url: string, method = 'GET') => new Request(url, { method })

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
    const answer = await appProtocolHandler(rendererDir)(request(APP_PAGE_URL))
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(answer.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY)
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await answer.text()).toBe(INDEX)
  })

  it('serves the build’s scripts as JavaScript, which module loading insists on', async () => {
    const answer = await appProtocolHandler(rendererDir)(request('app://catalog-desk/assets/index-AbC123.js'))
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await answer.text()).toBe(SCRIPT)
  })

  it('answers other hosts of the scheme with a 404', async () => {
    const answer = await appProtocolHandler(rendererDir)(request('app://elsewhere/index.html'))
    expect(answer.status).toBe(404)
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

  it('lets hashed assets be kept, and the page never', async () => {
    expect((await serve('/index.html')).headers.get('cache-control')).toBe('no-store')
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
