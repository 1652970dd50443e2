import { describe, expect, it } from 'vitest'
import type { Sandbox } from '#node/sandbox/server.ts'
import { bulkRequest, postSkus, sandboxFor } from './sandbox-client.ts'

/** Barcodes the service refuses although they meet the contract: the whole batch answers 422. */

const control = (sandbox: Sandbox, init: RequestInit = {}) =>
  fetch(`${sandbox.url}/__sandbox/rejected-barcodes`, init)

const withBarcodes = (...barcodes: string[]) => {
  const request = bulkRequest()
  const template = request.skus[0]!
  request.skus = barcodes.map((barcode) => ({ ...structuredClone(template), barcode }))
  return request
}

describe('sandbox: rejectBarcodes', () => {
  it('a batch holding a refused barcode answers 422 naming skus.N.barcode, and stores nothing', async () => {
    const sandbox = await sandboxFor({ rejectBarcodes: ['POISON-1', 'POISON-2'] })
    const response = await postSkus(sandbox, withBarcodes('OK-1', 'POISON-2', 'OK-2', 'POISON-1'))
    expect(response.status).toBe(422)
    expect(await response.json()).toEqual({
      message: '2 SKUs of 4 refused by the service; nothing was stored',
      errors: [
        { path: 'skus.1.barcode', message: 'The service refuses the barcode POISON-2' },
        { path: 'skus.3.barcode', message: 'The service refuses the barcode POISON-1' },
      ],
    })
    expect(sandbox.received().skus).toEqual([])
    const fine = await postSkus(sandbox, withBarcodes('OK-1', 'OK-2'))
    expect(fine.status).toBe(201)
    expect(sandbox.received().skus).toHaveLength(2)
  })

  it('an invalid batch is still a 400 for its contract problems first', async () => {
    const sandbox = await sandboxFor({ rejectBarcodes: ['POISON-1'] })
    const request = withBarcodes('POISON-1')
    request.skus[0]!.isActive = 'yes'
    const response = await postSkus(sandbox, request)
    expect(response.status).toBe(400)
    await response.arrayBuffer()
  })

  it('the control endpoint adds, lists and clears refused barcodes', async () => {
    const sandbox = await sandboxFor()
    const added = await control(sandbox, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(['B-9']),
    })
    expect(await added.json()).toEqual({ barcodes: ['B-9'] })
    expect(sandbox.rejectedBarcodes()).toEqual(['B-9'])
    expect((await postSkus(sandbox, withBarcodes('B-9'))).status).toBe(422)
    expect(await (await control(sandbox)).json()).toEqual({ barcodes: ['B-9'] })
    expect((await control(sandbox, { method: 'DELETE' })).status).toBe(204)
    expect((await postSkus(sandbox, withBarcodes('B-9'))).status).toBe(201)
  })

  it('refuses a body that is not a list of barcodes', async () => {
    const sandbox = await sandboxFor()
    const response = await control(sandbox, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([42]),
    })
    expect(response.status).toBe(400)
    expect(((await response.json()) as { message: string }).message).toMatch(/list of non-empty strings/)
    expect(() => sandbox.rejectBarcodes([''])).toThrow(RangeError)
  })
})
