import { describe, expect, it } from 'vitest'
import { appCreateResponseSchema } from '#shared/schema/app.ts'
import { validateDocument, type DocumentKind } from '#shared/validation/document.ts'
import { fixture, fixtureNames } from './contract-fixtures.ts'

// Every request fixture and the kind of document it is read as.
const REQUESTS: Record<string, DocumentKind> = {
  'sku-eyewear-full.json': 'sku',
  'sku-partial-meta.json': 'sku',
  'bulk-upload-request.json': 'bulk-request',
  'app-create-request.json': 'app-request',
}
const RESPONSES = ['app-create-response.json']

describe('the contract fixtures', () => {
  it('are all accounted for here, so a new fixture gets checked too', () => {
    expect(fixtureNames()).toEqual([...Object.keys(REQUESTS), ...RESPONSES].sort())
  })

  it.each(Object.entries(REQUESTS))('%s validates as %s with no errors', (name, kind) => {
    const report = validateDocument(fixture(name))
    expect(report.kind).toBe(kind)
    expect(report.documentErrors).toEqual([])
    expect(report.reports.length).toBeGreaterThan(0)
    expect(report.reports.flatMap((item) => item.errors)).toEqual([])
  })

  it('the bulk request holds two SKUs, each checked', () => {
    const report = validateDocument(fixture('bulk-upload-request.json'))
    expect(report.reports.map((item) => item.index)).toEqual([0, 1])
  })

  it('the SKU with partial meta and no optional envSettings keys has no warnings either', () => {
    expect(validateDocument(fixture('sku-partial-meta.json')).reports[0]?.warnings).toEqual([])
  })

  it('the app creation response parses with the response schema, empty nested objects and all', () => {
    const parsed = appCreateResponseSchema().safeParse(fixture('app-create-response.json'))
    expect(parsed.error?.issues).toBeUndefined()
    expect(parsed.data?.app._id).toBe('6f1c2a4e-8b3d-4c5e-9f7a-1b2c3d4e5f60')
    expect(parsed.data?.app.appConfig?.app_id).toBe(parsed.data?.app._id)
  })

  it('a response without the app identifier is rejected', () => {
    const response = fixture('app-create-response.json')
    delete (response.app as Record<string, unknown>)._id
    expect(appCreateResponseSchema().safeParse(response).success).toBe(false)
  })
})
