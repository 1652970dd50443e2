import { describe, expect, it } from 'vitest'
import { checkArrival, MAX_SHARED_DOCUMENT_BYTES } from '#shared/team/shared-documents.ts'

const REV = '2-9f86d081884c7d659a2feaa0c55ad015'
const good = {
  _id: 'sku:f1',
  _rev: REV,
  type: 'sku',
  payload: { productName: 'Aviator 58', arEffect: { envSettings: { intensity: 0.8 } } },
  deleted: false,
  editedBy: 'ana',
  editedAt: 1_790_000_000_000,
}
/** As the replica hands documents over: parsed from the server's JSON, own `__proto__` keys kept. */
const parsed = (json: string) => JSON.parse(json) as unknown

describe('documents arriving from a team workspace (issue #41)', () => {
  it('takes a draft’s version and a removal as they are', () => {
    expect(checkArrival(good)).toEqual({ ok: true, draft: good })
    expect(checkArrival({ _id: 'app:a1', _rev: REV, _deleted: true })).toEqual({
      ok: true,
      removed: { _id: 'app:a1', _rev: REV },
    })
  })

  it('sets aside a document holding a prototype key at any depth, naming it', () => {
    const top = parsed(JSON.stringify(good).replace('"type"', '"__proto__":{"polluted":true},"type"'))
    const nested = parsed(
      JSON.stringify(good).replace('"productName"', '"tags":[{"constructor":{"prototype":1}}],"productName"'),
    )
    expect(checkArrival(top)).toEqual({ ok: false, id: 'sku:f1', reason: 'holds a "__proto__" key' })
    expect(checkArrival(nested)).toEqual({ ok: false, id: 'sku:f1', reason: 'holds a "constructor" key' })
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined()
  })

  it('sets aside what is too large or too deep to be a draft', () => {
    const huge = { ...good, payload: { description: 'x'.repeat(MAX_SHARED_DOCUMENT_BYTES) } }
    expect(checkArrival(huge)).toEqual({ ok: false, id: 'sku:f1', reason: 'larger than 1 MB' })
    let deep: Record<string, unknown> = {}
    for (let i = 0; i < 200; i++) deep = { next: deep }
    expect(checkArrival({ ...good, payload: deep })).toMatchObject({ ok: false, reason: /nested deeper/ })
  })

  it('sets aside a document whose shape is not a shared draft’s, saying which part', () => {
    const cases: Array<[unknown, RegExp]> = [
      ['a string', /not an object/],
      [{ ...good, _id: 'claim:production:f1' }, /id is not a shared draft/],
      [{ ...good, _id: 'sku:../../etc' }, /id is not a shared draft/],
      [{ ...good, _rev: 'latest' }, /revision/],
      [{ ...good, type: 'app' }, /type does not match its id/],
      [{ ...good, payload: ['not', 'an', 'object'] }, /payload is not an object/],
      [{ ...good, deleted: 'no' }, /"deleted"/],
      [{ ...good, editedBy: '' }, /"editedBy"/],
      [{ ...good, editedAt: '10:42' }, /"editedAt"/],
      [{ ...good, sent: { production: 'PROD-1' } }, /unknown fields \(sent\)/],
      [{ _id: 'sku:f1', _rev: REV, _deleted: true, payload: {} }, /a removal with fields \(payload\)/],
    ]
    for (const [doc, reason] of cases) expect(checkArrival(doc)).toMatchObject({ ok: false, reason })
  })
})

describe('column mappings arriving from a team workspace (issue #41)', () => {
  const mapping = {
    _id: 'mapping:0123456789abcdef0123456789abcdef',
    _rev: REV,
    type: 'mapping',
    header: 'Nome do produto',
    path: 'productName',
    editedBy: 'ana',
    editedAt: 1_790_000_000_000,
  }

  it('takes a mapping, an ignored column’s too', () => {
    expect(checkArrival(mapping)).toEqual({ ok: true, mapping })
    expect(checkArrival({ ...mapping, path: null })).toEqual({
      ok: true,
      mapping: { ...mapping, path: null },
    })
  })

  it('sets aside a mapping whose shape is not one, saying which part', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ ...mapping, _id: 'mapping:Nome do produto' }, /id is not a shared draft/],
      [{ ...mapping, type: 'sku' }, /type does not match its id/],
      [{ ...mapping, header: '' }, /"header"/],
      [{ ...mapping, header: 'x'.repeat(501) }, /"header"/],
      [{ ...mapping, path: { field: 'productName' } }, /"path"/],
      [{ ...mapping, editedBy: 7 }, /"editedBy"/],
      [{ ...mapping, payload: {} }, /unknown fields \(payload\)/],
    ]
    for (const [doc, reason] of cases) expect(checkArrival(doc)).toMatchObject({ ok: false, reason })
  })

  it('takes a desk’s claim on a draft, and sets aside one whose shape is not a claim’s', () => {
    const claim = {
      _id: 'claim:0123456789abcdef:sku:f1',
      _rev: REV,
      type: 'claim',
      destination: 'https://api.example.test',
      kind: 'sku',
      draft: 'f1',
      position: 4,
      owner: 'ana',
      run: 'r-1',
      claimedAt: 1_790_000_000_000,
      expiresAt: 1_790_000_120_000,
    }
    expect(checkArrival(claim)).toEqual({ ok: true, claim })
    const cases: unknown[] = [
      { ...claim, _id: 'claim:0123:sku:f1' },
      { ...claim, draft: 'f2' },
      { ...claim, owner: '' },
      { ...claim, position: 1.5 },
      { ...claim, expiresAt: 'soon' },
      { ...claim, note: 'hi' },
    ]
    for (const doc of cases) expect(checkArrival(doc)).toMatchObject({ ok: false })
  })

  it('takes another desk’s send record, and sets aside one that is not, naming the field (issue #42)', () => {
    const sent = {
      _id: 'sent:0123456789abcdef:sku:f1',
      _rev: REV,
      type: 'sent',
      destination: 'https://api.example.test',
      kind: 'sku',
      draft: 'f1',
      desk: 'ana',
      run: 'r-1',
      position: 3,
      label: '0123456789012',
      state: 'synced',
      at: 1_790_000_000_000,
      remoteId: 'plat-9',
      sent: { skuId: 'S-1', productName: 'Rouge' },
    }
    expect(checkArrival(sent)).toEqual({ ok: true, sent })
    // An applied update's record (a correction another desk sent) is one too.
    const updated = { ...sent, run: 'r-2', action: 'update' }
    expect(checkArrival(updated)).toEqual({ ok: true, sent: updated })
    const cases: Array<[unknown, RegExp]> = [
      [{ ...sent, action: 'delete' }, /"action" is not an applied update/],
      [{ ...updated, state: 'failed' }, /"action" is not an applied update/],
      [{ ...sent, _id: 'sent:0123:sku:f1' }, /id is not a shared draft/],
      [{ ...sent, draft: 'f2' }, /"kind" and "draft" do not match its id/],
      [{ ...sent, desk: '' }, /"desk"/],
      [{ ...sent, state: 'sending' }, /"state" is not one of synced, rejected, failed, unknown/],
      [{ ...sent, position: -1 }, /"position"/],
      [{ ...sent, at: 'now' }, /"at"/],
      [{ ...sent, remoteId: 42 }, /"remoteId"/],
      [{ ...sent, decidedBy: 'ben' }, /unknown fields \(decidedBy\)/],
      [{ ...sent, type: 'claim' }, /type does not match its id/],
    ]
    for (const [doc, reason] of cases) expect(checkArrival(doc)).toMatchObject({ ok: false, reason })
  })
})

describe('the workspace’s format arriving from a team workspace', () => {
  it('takes it whatever else a later version wrote in it, and sets aside one with no format', () => {
    const format = { _id: 'format', _rev: REV, type: 'format', format: 3, desk: 'carol', at: 1, later: true }
    expect(checkArrival(format)).toEqual({ ok: true, format: { format: 3, desk: 'carol' } })
    expect(checkArrival({ ...format, format: '3' })).toEqual({
      ok: false,
      id: 'format',
      reason: 'not the workspace format’s shape',
    })
  })
})
