import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { appPage } from '../../../src/main/app-page.ts'
import { isExternalLink } from '../../../src/main/external-link.ts'

const rendererFile = join('/opt', 'Catalog Desk', 'resources', 'out', 'renderer', 'index.html')
const fileUrl = pathToFileURL(rendererFile).href

describe('appPage, built app (file://)', () => {
  const page = appPage({ rendererFile })

  it('loads the built file', () => {
    expect(page.devServerUrl).toBeUndefined()
    expect(page.rendererFile).toBe(rendererFile)
  })

  it.each([fileUrl, `${fileUrl}#/skus/42`, `${fileUrl}?x=1#/`])('accepts its own page %s', (url) => {
    expect(page.isAppUrl(url)).toBe(true)
  })

  it.each([
    pathToFileURL(join('/opt', 'Catalog Desk', 'resources', 'out', 'renderer', 'other.html')).href,
    pathToFileURL(join('/tmp', 'index.html')).href,
    'file://evil-host' + pathToFileURL(rendererFile).pathname,
    'https://example.com/index.html',
    'http://localhost:5173/',
    'about:blank',
    'data:text/html,<h1>hi</h1>',
    'not a url',
    '',
  ])('rejects %s', (url) => {
    expect(page.isAppUrl(url)).toBe(false)
  })
})

describe('appPage, dev server', () => {
  const page = appPage({ devServerUrl: 'http://localhost:5173', rendererFile })

  it('loads the dev server', () => {
    expect(page.devServerUrl).toBe('http://localhost:5173')
  })

  it.each(['http://localhost:5173/', 'http://localhost:5173/#/settings', 'http://localhost:5173/index.html'])(
    'accepts the dev server page %s',
    (url) => {
      expect(page.isAppUrl(url)).toBe(true)
    },
  )

  it.each(['http://localhost:5174/', 'https://localhost:5173/', 'http://127.0.0.1:5173/', fileUrl])(
    'rejects %s',
    (url) => {
      expect(page.isAppUrl(url)).toBe(false)
    },
  )

  it('treats an empty dev server URL as no dev server', () => {
    const built = appPage({ devServerUrl: '', rendererFile })
    expect(built.devServerUrl).toBeUndefined()
    expect(built.isAppUrl(fileUrl)).toBe(true)
  })
})

describe('isExternalLink', () => {
  it.each(['https://example.com/', 'https://docs.example.com/a?b=c#d'])('accepts %s', (url) => {
    expect(isExternalLink(url)).toBe(true)
  })

  it.each([
    'http://example.com/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'smb://server/share',
    'ms-msdt:/id',
    'HTTPS',
    '',
  ])('rejects %s', (url) => {
    expect(isExternalLink(url)).toBe(false)
  })
})
