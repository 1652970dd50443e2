import { describe, expect, it } from 'vitest'
import { appPage } from '#main/app-page.ts'
import { externalLink } from '#main/external-link.ts'

const appUrl = 'app://catalog-desk/index.html'

describe('appPage, built app (app://)', () => {
  const page = appPage()

  it('loads the page the app protocol serves', () => {
    expect(page.devServerUrl).toBeUndefined()
    expect(page.url).toBe(appUrl)
  })

  it.each([appUrl, `${appUrl}#/skus/42`, `${appUrl}?x=1#/`, 'app://catalog-desk/a/../index.html'])(
    'accepts its own page %s',
    (url) => {
      expect(page.isAppUrl(url)).toBe(true)
    },
  )

  it.each([
    'app://catalog-desk/other.html',
    'app://catalog-desk/',
    'app://other-host/index.html',
    'app://catalog-desk:8080/index.html',
    'app://user@catalog-desk/index.html',
    'file:///opt/Catalog%20Desk/resources/out/renderer/index.html',
    'https://catalog-desk/index.html',
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
  const page = appPage({ devServerUrl: 'http://localhost:5173' })

  it('loads the dev server', () => {
    expect(page.devServerUrl).toBe('http://localhost:5173')
    expect(page.url).toBe('http://localhost:5173')
  })

  it.each(['http://localhost:5173/', 'http://localhost:5173/#/settings', 'http://localhost:5173/index.html'])(
    'accepts the dev server page %s',
    (url) => {
      expect(page.isAppUrl(url)).toBe(true)
    },
  )

  it.each(['http://localhost:5174/', 'https://localhost:5173/', 'http://127.0.0.1:5173/', appUrl])(
    'rejects %s',
    (url) => {
      expect(page.isAppUrl(url)).toBe(false)
    },
  )

  it('treats an empty dev server URL as no dev server', () => {
    const built = appPage({ devServerUrl: '' })
    expect(built.devServerUrl).toBeUndefined()
    expect(built.url).toBe(appUrl)
    expect(built.isAppUrl(appUrl)).toBe(true)
  })
})

describe('externalLink', () => {
  it.each(['https://example.com/', 'https://docs.example.com/a?b=c#d'])('opens %s as it is', (url) => {
    expect(externalLink(url)).toBe(url)
  })

  it.each([
    'http://example.com/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'smb://server/share',
    'ms-msdt:/id',
    'HTTPS',
    '',
  ])('opens nothing for %s', (url) => {
    expect(externalLink(url)).toBeUndefined()
  })
})
