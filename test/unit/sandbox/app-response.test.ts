import { describe, expect, it } from 'vitest'
import { EMPTIED_IN_RESPONSE, SANDBOX_ORG_ID } from '#node/sandbox/app-response.ts'
import { appCreateResponseSchema } from '#shared/schema/app.ts'
import { fixture, getAt } from '../shared/contract-fixtures.ts'
import { postApp, sandboxFor } from './sandbox-client.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

interface AppBody {
  app: Record<string, unknown> & { _id: string; created_at: string; appConfig: Record<string, unknown> }
}

describe('sandbox app creation', () => {
  it('answers 201 with the contract sample’s shape: the listed nested objects empty', async () => {
    const sandbox = await sandboxFor()
    const response = await postApp(sandbox)
    expect(response.status).toBe(201)
    const body = (await response.json()) as AppBody
    expect(appCreateResponseSchema().safeParse(body).success).toBe(true)

    const { app } = body
    expect(app._id).toMatch(UUID)
    expect(app.appConfig._id).toMatch(UUID)
    expect(app.appConfig._id).not.toBe(app._id)
    expect(app.appConfig.app_id).toBe(app._id)
    expect(app.created_at).toMatch(ISO)
    expect(app.appConfig.created_at).toBe(app.created_at)
    expect(app.appConfig.updated_at).toBe(app.created_at)

    // The fixture is the contract's sample for the fixture request; only identifiers, times and org differ.
    const expected = fixture('app-create-response.json') as unknown as AppBody
    expect(app).toEqual({
      ...expected.app,
      _id: app._id,
      org_id: SANDBOX_ORG_ID,
      created_at: app.created_at,
      appConfig: {
        ...expected.app.appConfig,
        _id: app.appConfig._id,
        app_id: app._id,
        created_at: app.created_at,
        updated_at: app.created_at,
      },
    })
    expect(Object.keys(app)).toEqual(Object.keys(expected.app))
  })

  it('with emptyNestedObjects false (--full-app-response) returns the nested objects as sent', async () => {
    const sandbox = await sandboxFor({ emptyNestedObjects: false })
    const request = fixture('app-create-request.json')
    const { app } = (await (await postApp(sandbox, request)).json()) as AppBody
    for (const path of EMPTIED_IN_RESPONSE) {
      expect(getAt(app, path.join('.'))).toEqual(getAt(request, path.join('.')))
    }
    expect(app.report_config).toEqual(request.report_config)
    expect(app.appConfig.ui_config).toEqual((request.appConfig as Record<string, unknown>).ui_config)
  })

  it('stores the request as sent with the app it answered', async () => {
    const sandbox = await sandboxFor()
    const request = { ...fixture('app-create-request.json'), campaign: 'spring' }
    const { app } = (await (await postApp(sandbox, request)).json()) as AppBody
    expect(app).not.toHaveProperty('campaign')
    expect(sandbox.received().apps).toEqual([{ id: app._id, receivedAt: app.created_at, request, app }])
  })

  it('answers 400 with the shared validation’s paths and creates nothing', async () => {
    const sandbox = await sandboxFor()
    const request = fixture('app-create-request.json')
    request.expire_images_after_days = 'forever'
    const response = await postApp(sandbox, request)
    expect(response.status).toBe(400)
    const body = (await response.json()) as { message: string; errors: { path: string }[] }
    expect(body.message).toMatch(/no app was created/)
    expect(body.errors.map((error) => error.path)).toEqual(['expire_images_after_days'])
    expect(sandbox.received().apps).toEqual([])
  })

  it('a request missing sections is created (missing fields are only warnings)', async () => {
    const sandbox = await sandboxFor()
    const response = await postApp(sandbox, { name: 'Bare', status: 'enabled' })
    expect(response.status).toBe(201)
    const { app } = (await response.json()) as AppBody
    expect(app).toMatchObject({ name: 'Bare', meta: {}, report_config: {}, copilot: {} })
    expect(app.appConfig).toMatchObject({ ui_config: {}, meta: {}, domains: [] })
  })
})
