import { describe, expect, it } from 'vitest'
import { createdAppId, serviceDifferences } from '#renderer/features/apps/created-app.ts'
import type { AppCreateRequest } from '#shared/schema/app.ts'
import request from '../../fixtures/app-create-request.json'

const payload = structuredClone(request) as AppCreateRequest

describe('the created app as the editor shows it', () => {
  it('reads the app id the draft’s standing keeps, and only a non-empty string', () => {
    expect(createdAppId({ remoteId: 'abc' })).toBe('abc')
    expect(createdAppId({ remoteId: '' })).toBeUndefined()
    expect(createdAppId({})).toBeUndefined()
    // Not sent to that destination: no standing there, no id.
    expect(createdAppId(undefined)).toBeUndefined()
  })

  it('names what the service emptied, dropped or changed with the editor’s titles', () => {
    const response = structuredClone(request) as Record<string, unknown> & {
      report_config: Record<string, unknown>
    }
    response.report_config.features = {}
    delete (response as Record<string, unknown>).status
    response.expire_images_after_days = 30
    Object.assign(response, { _id: 'id-1', created_at: '2025-01-01T00:00:00Z' })

    const found = serviceDifferences(payload, response)!
    expect(found.map((field) => [field.path, field.change])).toEqual([
      ['expire_images_after_days', 'changed'],
      ['status', 'dropped'],
      ['report_config.features', 'emptied'],
    ])
    expect(found[2]!.text).toBe('report_config.features: returned empty')
    expect(found.every((field) => field.title !== '' && field.title !== field.path)).toBe(true)
  })

  it('has nothing to compare without a kept answer, and no difference for an identical one', () => {
    expect(serviceDifferences(payload, undefined)).toBeUndefined()
    expect(serviceDifferences(payload, structuredClone(request))).toEqual([])
  })
})
