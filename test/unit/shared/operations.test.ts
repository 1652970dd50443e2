import { describe, expect, it } from 'vitest'
import { invokeArguments } from '#shared/ipc-arguments.ts'
import { z } from '#shared/schema/zod.ts'
import {
  OPERATION_KEYS,
  pathParameter,
  SERVICE_OPERATIONS,
  operationPath,
  serviceOperation,
  type ServiceOperation,
} from '#shared/service/operations.ts'
import { APP_KIND, SKU_KIND, createRequest, requestBody } from '#shared/sync/kinds.ts'

// An operation with a path parameter, shaped as the SKU update the table will hold (issue #34):
// the path is the table's, the parameter is checked and encoded, nothing else of the argument moves it.
const update: ServiceOperation<{ skuId: string; changes: Record<string, unknown> }> = {
  method: 'PUT',
  path: '/service/platform/misc/v2.0/skus/{skuId}',
  params: { skuId: pathParameter() },
  argument: z.strictObject({ skuId: pathParameter(), changes: z.record(z.string(), z.unknown()) }),
  pathParams: ({ skuId }) => ({ skuId }),
  body: ({ changes }) => changes,
  logWords: () => 'a SKU updated at',
  subject: 'the SKU',
  done: 'updated',
  statuses: { 404: 'not-found' },
}

describe('the operation table', () => {
  it('builds each body once, from the table: a batch of SKUs as {skus}, an app as itself', () => {
    const skus = [{ barcode: '1' }, { barcode: '2' }]
    expect(requestBody(createRequest(SKU_KIND, skus))).toEqual({ skus })
    const app = { name: 'Try-on' }
    expect(requestBody(createRequest(APP_KIND, [app]))).toBe(app)
    expect(createRequest(SKU_KIND, skus).operation).toBe('bulk-upload')
    expect(createRequest(APP_KIND, [app]).operation).toBe('create-app')
  })

  it('gives every operation a path of the contract and no parameter it does not check', () => {
    for (const key of OPERATION_KEYS) {
      const definition = serviceOperation(key)
      expect(definition.path).toMatch(/^\/service\/platform\/misc\/v\d\.\d\//)
      for (const [, name] of definition.path.matchAll(/\{(\w+)\}/g))
        expect(definition.params).toHaveProperty(name!)
    }
    expect(operationPath(SERVICE_OPERATIONS['bulk-upload'], [])).toEqual({
      path: '/service/platform/misc/v2.0/skus/bulk-upload',
    })
  })

  it('fills a path parameter only with a value its schema takes, so no value can move the path', () => {
    const changes = { productName: 'x' }
    expect(operationPath(update, { skuId: 'sku_42-a', changes })).toEqual({
      path: '/service/platform/misc/v2.0/skus/sku_42-a',
    })
    for (const skuId of ['../apps', 'a/b', 'a?b=1', 'a#b', '%2e%2e', '', 'x'.repeat(129), ' 1']) {
      const built = operationPath(update, { skuId, changes })
      expect(built, skuId).toEqual({ problem: expect.stringContaining('"skuId"') })
    }
  })

  it('refuses a path that names a parameter the operation does not declare', () => {
    expect(operationPath({ ...update, params: {} }, { skuId: '1', changes: {} })).toEqual({
      problem: expect.stringContaining('does not declare it'),
    })
  })

  it('checks a request from the page against its operation: a known key, its argument, nothing else', () => {
    const schema = invokeArguments.syncSend
    const call = (request: unknown) =>
      schema.safeParse(['sandbox', 'embedded-sandbox', request, 'run-1/engine/1']).success
    expect(call({ operation: 'bulk-upload', argument: [{ barcode: '1' }] })).toBe(true)
    expect(call({ operation: 'create-app', argument: { name: 'x' } })).toBe(true)
    expect(call({ operation: 'bulk-upload', argument: [] })).toBe(false)
    expect(call({ operation: 'bulk-upload', argument: { name: 'x' } })).toBe(false)
    expect(call({ operation: 'create-app', argument: [{ name: 'x' }] })).toBe(false)
    expect(call({ operation: 'update-anything', argument: {} })).toBe(false)
    expect(call({ operation: 'create-app', argument: {}, path: '/elsewhere' })).toBe(false)
    expect(call({ argument: {} })).toBe(false)
  })
})
