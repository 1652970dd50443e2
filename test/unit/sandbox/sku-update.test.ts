import { describe, expect, it } from 'vitest'
import type { Sandbox } from '#node/sandbox/server.ts'
import {
  bulkRequest,
  createSkus,
  eventually,
  JSON_HEADERS,
  post,
  putSku as put,
  sandboxFor,
  skuPath,
} from './sandbox-client.ts'

type Sku = Record<string, unknown> & {
  brand: string
  category: string
  arEffect: { transform: { position: { x: number; y: number; z: number } } } & Record<string, unknown>
}

/** Creates the fixture's two SKUs and returns what was sent with the ids the 201 gave them. */
async function created(sandbox: Sandbox): Promise<{ sent: Sku[]; ids: string[] }> {
  const request = bulkRequest()
  return { sent: request.skus as Sku[], ids: await createSkus(sandbox, request) }
}

/** What /__sandbox/received lists, read over HTTP as a browser test would. */
async function listed(sandbox: Sandbox) {
  const response = await fetch(`${sandbox.url}/__sandbox/received`)
  return (await response.json()) as ReturnType<Sandbox['received']>
}

describe('sandbox SKU update (PUT …/skus/{skuId})', () => {
  it('changes only the fields sent: a nested position.y keeps its siblings; received shows the SKU and the update', async () => {
    const sandbox = await sandboxFor()
    const { sent, ids } = await created(sandbox)
    const body = { arEffect: { transform: { position: { y: 0.02 } } } }
    const response = await put(sandbox, ids[0]!, body)
    expect(response.status).toBe(200)
    const expected = structuredClone(sent[0]!)
    expected.arEffect.transform.position.y = 0.02
    expect(await response.json()).toEqual({ message: 'Updated', sku: { ...expected, _id: ids[0] } })

    const { skus } = await listed(sandbox)
    expect(skus).toHaveLength(2)
    expect(skus[0]).toMatchObject({
      _id: ids[0],
      sku: expected,
      updates: [{ body, receivedAt: expect.any(String) }],
    })
    // The other SKU is as it was created.
    expect(skus[1]).toMatchObject({ _id: ids[1], sku: sent[1], updates: [] })
    expect(sandbox.received()).toEqual(await listed(sandbox))
  })

  it('updates merge in order, each on what the one before made; a list replaces the one stored', async () => {
    const sandbox = await sandboxFor()
    const { sent, ids } = await created(sandbox)
    expect((await put(sandbox, ids[1]!, { brand: 'Southwind' })).status).toBe(200)
    const assets = [{ id: 'frame', url: 'https://cdn.example.com/models/new.glb' }]
    const last = await put(sandbox, ids[1]!, { arEffect: { effectAssets3D: assets } })
    expect(last.status).toBe(200)
    const { sku } = (await last.json()) as { sku: Sku }
    expect(sku.brand).toBe('Southwind')
    expect(sku.arEffect.effectAssets3D).toEqual(assets)
    expect(sku.arEffect.transform).toEqual(sent[1]!.arEffect.transform)

    const entry = (await listed(sandbox)).skus[1]!
    expect(entry.sku).toEqual({
      ...sent[1],
      brand: 'Southwind',
      arEffect: { ...sent[1]!.arEffect, effectAssets3D: assets },
    })
    expect(entry.updates.map((update) => update.body)).toEqual([
      { brand: 'Southwind' },
      { arEffect: { effectAssets3D: assets } },
    ])
    expect(
      sandbox
        .requests()
        .map(({ method, path, endpoint, status, stored }) => ({ method, path, endpoint, status, stored })),
    ).toEqual([
      {
        method: 'POST',
        path: expect.stringContaining('/bulk-upload'),
        endpoint: 'skus',
        status: 201,
        stored: true,
      },
      { method: 'PUT', path: skuPath(ids[1]!), endpoint: 'sku-update', status: 200, stored: true },
      { method: 'PUT', path: skuPath(ids[1]!), endpoint: 'sku-update', status: 200, stored: true },
    ])
  })

  it.each([
    ['a well-formed id never given out', 'aaaaaaaaaaaaaaaaaaaaaaaa'],
    ['an inherited name', 'constructor'],
    ['characters outside letters, digits, - and _', 'a%2Fb.c'],
  ])('404 with a JSON {message} for %s; nothing stored', async (_case, id) => {
    const sandbox = await sandboxFor()
    await created(sandbox)
    const response = await put(sandbox, id, { brand: 'Nobody' })
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await response.json()).toEqual({ message: `SKU ${id} not found` })
    expect(sandbox.received().skus.every((entry) => entry.updates.length === 0)).toBe(true)
    expect(sandbox.requests().at(-1)).toMatchObject({ method: 'PUT', endpoint: 'sku-update', status: 404 })
  })

  it('400 naming the field when the merged SKU would be invalid; nothing changes', async () => {
    const sandbox = await sandboxFor()
    const { sent, ids } = await created(sandbox)
    const response = await put(sandbox, ids[0]!, { arEffect: { envSettings: { intensity: 'high' } } })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      message: 'The SKU would be invalid after this update; nothing was changed',
      errors: [{ path: 'arEffect.envSettings.intensity', message: expect.stringContaining('Intensity') }],
    })
    expect(sandbox.received().skus[0]).toMatchObject({ sku: sent[0], updates: [] })
    expect(sandbox.requests().at(-1)).toMatchObject({ status: 400, stored: false })
  })

  it('400 naming arEffect for a category change without one; with an arEffect the change is made', async () => {
    const sandbox = await sandboxFor()
    const { sent, ids } = await created(sandbox)
    const refused = await put(sandbox, ids[0]!, { category: 'jewellery' })
    expect(refused.status).toBe(400)
    expect(await refused.json()).toEqual({
      message: 'Changing the category needs an arEffect that fits it; nothing was changed',
      errors: [{ path: 'arEffect', message: expect.stringContaining('from "eyewear" to "jewellery"') }],
    })
    expect(sandbox.received().skus[0]!.sku).toEqual(sent[0])
    // The same category again is no change.
    expect((await put(sandbox, ids[0]!, { category: 'eyewear', brand: 'Same' })).status).toBe(200)
    const arEffect = { transform: { position: { x: 0, y: -0.05, z: 0 } } }
    const moved = await put(sandbox, ids[0]!, { category: 'jewellery', arEffect })
    expect(moved.status).toBe(200)
    expect(((await moved.json()) as { sku: Sku }).sku).toMatchObject({ category: 'jewellery', arEffect })
  })

  it.each([
    ['a list', '[{"brand":"x"}]'],
    ['a string', '"brand"'],
    ['null', 'null'],
  ])('400 for a body that is %s', async (_case, text) => {
    const sandbox = await sandboxFor()
    const { ids } = await created(sandbox)
    const response = await put(sandbox, ids[0]!, text)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      message: 'The body is not a SKU update ({"field": value, ...})',
      errors: [{ path: '', message: 'The body must be an object with the fields to change' }],
    })
  })

  it('400 for a body naming _id: the id is the address', async () => {
    const sandbox = await sandboxFor()
    const { ids } = await created(sandbox)
    const response = await put(sandbox, ids[0]!, { _id: 'bbbbbbbbbbbbbbbbbbbbbbbb', brand: 'x' })
    expect(response.status).toBe(400)
    expect(((await response.json()) as { errors: { path: string }[] }).errors).toEqual([
      { path: '_id', message: expect.any(String) },
    ])
  })

  it('a "__proto__" field is kept as a field, not made the prototype', async () => {
    const sandbox = await sandboxFor()
    const { ids } = await created(sandbox)
    const response = await put(sandbox, ids[0]!, '{"__proto__": {"polluted": true}, "brand": "Kept"}')
    expect(response.status).toBe(200)
    const stored = sandbox.received().skus[0]!.sku as Record<string, unknown>
    expect(stored.brand).toBe('Kept')
    expect(Object.hasOwn(stored, '__proto__')).toBe(true)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('checks the token, the content type and the JSON as the bulk upload does; POST is 405', async () => {
    const sandbox = await sandboxFor()
    const { ids } = await created(sandbox)
    const id = ids[0]!
    expect((await put(sandbox, id, { brand: 'x' }, { 'content-type': 'application/json' })).status).toBe(401)
    expect(
      (await put(sandbox, id, { brand: 'x' }, { authorization: JSON_HEADERS.authorization })).status,
    ).toBe(415)
    expect((await put(sandbox, id, '{"brand":')).status).toBe(400)
    const wrongMethod = await post(sandbox, skuPath(id), { brand: 'x' })
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.get('allow')).toBe('PUT')
    // The bulk upload's own path is not an update of a SKU called "bulk-upload".
    const bulk = await put(sandbox, 'bulk-upload', { brand: 'x' })
    expect(bulk.status).toBe(405)
    expect(bulk.headers.get('allow')).toBe('POST')
    expect(sandbox.received().skus.every((entry) => entry.updates.length === 0)).toBe(true)
  })

  it('413 for a body over the size limit', async () => {
    const sandbox = await sandboxFor({ maxBodyBytes: 64 })
    // A SKU small enough to create under the limit; its update is not.
    const [id] = await createSkus(sandbox, { skus: [{ barcode: '1', brand: 'b' }] })
    const update = await put(sandbox, id!, { productName: 'x'.repeat(100) })
    expect(update.status).toBe(413)
    expect(sandbox.received().skus[0]!.updates).toEqual([])
  })

  it('a fault rule for sku-update applies to updates only; at stage after the update is stored', async () => {
    const sandbox = await sandboxFor({
      faults: [
        { kind: 'server-error', endpoint: 'sku-update' },
        { kind: 'reset', endpoint: 'sku-update', stage: 'after' },
      ],
    })
    const { ids } = await created(sandbox)
    const first = await put(sandbox, ids[0]!, { brand: 'First' })
    expect(first.status).toBe(500)
    expect(sandbox.received().skus[0]!.updates).toEqual([])
    await expect(put(sandbox, ids[0]!, { brand: 'Second' })).rejects.toThrow()
    expect(sandbox.received().skus[0]!.sku).toMatchObject({ brand: 'Second' })
    expect(sandbox.requests().slice(1)).toMatchObject([
      { endpoint: 'sku-update', status: 500, stored: false, fault: 'server-error:before (sku-update)' },
      { endpoint: 'sku-update', status: 'reset', stored: true, fault: 'reset:after (sku-update)' },
    ])
    expect((await put(sandbox, ids[0]!, { brand: 'Third' })).status).toBe(200)
  })

  it('the capacity model holds updates as it holds bulk uploads: beyond the slots, 429 unprocessed', async () => {
    const sandbox = await sandboxFor()
    const { ids } = await created(sandbox)
    sandbox.setCapacity({ latencyMs: 500, slots: 1 })
    const first = put(sandbox, ids[0]!, { brand: 'A' })
    // Its slot is taken as its request is logged, before the latency starts.
    await eventually(() => sandbox.requests().length === 2)
    const second = await put(sandbox, ids[1]!, { brand: 'B' })
    expect(second.status).toBe(429)
    expect(second.headers.get('retry-after')).toBe('1')
    expect((await first).status).toBe(200)
    expect(sandbox.received().skus.map((entry) => entry.updates.length)).toEqual([1, 0])
  })

  it('concurrent updates of one SKU each merge onto the one before', async () => {
    const sandbox = await sandboxFor()
    const { ids } = await created(sandbox)
    const answers = await Promise.all([
      put(sandbox, ids[0]!, { brand: 'Both' }),
      put(sandbox, ids[0]!, { productName: 'Kept together' }),
    ])
    expect(answers.map((answer) => answer.status)).toEqual([200, 200])
    expect(sandbox.received().skus[0]!.sku).toMatchObject({ brand: 'Both', productName: 'Kept together' })
  })
})
