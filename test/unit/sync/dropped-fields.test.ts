import { describe, expect, it } from 'vitest'
import { createdApp } from '#node/sandbox/app-response.ts'
import { describeDroppedField, droppedFields } from '#shared/sync/dropped-fields.ts'
import { fixture } from '../shared/contract-fixtures.ts'

describe('dropped fields of a created app', () => {
  it("the contract's sample: the nested objects the response empties are listed, nothing else", () => {
    const request = fixture('app-create-request.json')
    const response = (fixture('app-create-response.json') as { app: unknown }).app
    const paths = droppedFields(request, response).map((field) => `${field.path} ${field.change}`)
    expect(paths).toEqual(
      expect.arrayContaining([
        'report_config.report_titles emptied',
        'report_config.overallSkinScore emptied',
        'report_config.skinConcerns emptied',
        'report_config.features emptied',
        'appConfig.ui_config.advance emptied',
        'appConfig.ui_config.screens.loadingScreen emptied',
        'appConfig.ui_config.screens.instructionScreen emptied',
        'appConfig.ui_config.customCode emptied',
      ]),
    )
    // Fields the service added (_id, created_at, copilot…) are not differences.
    expect(paths.some((path) => /_id|created_at|copilot/.test(path))).toBe(false)
  })

  it('the sandbox with full answers drops only the fields the response does not list', () => {
    const request = { ...fixture('app-create-request.json'), extraField: 'kept?' }
    const app = createdApp(request, { emptyNestedObjects: false, now: new Date() })
    expect(droppedFields(request, app)).toEqual([{ path: 'extraField', change: 'dropped', sent: 'kept?' }])
  })

  it('changed values and types, arrays shortened or emptied', () => {
    const sent = { name: 'A', days: 30, list: [1, 2, 3], tags: ['x'], nested: { on: true, keep: {} } }
    const returned = { name: 'A', days: '30', list: [1, 2], tags: [], nested: { on: false, keep: {} } }
    expect(droppedFields(sent, returned)).toEqual([
      { path: 'days', change: 'changed', sent: 30, returned: '30' },
      { path: 'list.2', change: 'dropped', sent: 3 },
      { path: 'tags', change: 'emptied', sent: ['x'], returned: [] },
      { path: 'nested.on', change: 'changed', sent: true, returned: false },
    ])
    expect(droppedFields(sent, sent)).toEqual([])
  })

  it('describes each difference in one line', () => {
    expect(describeDroppedField({ path: 'a.b', change: 'emptied', sent: { x: 1 }, returned: {} })).toBe(
      'a.b: returned empty',
    )
    expect(describeDroppedField({ path: 'n', change: 'changed', sent: 1, returned: 2 })).toBe(
      'n: returned as 2 (sent 1)',
    )
    expect(describeDroppedField({ path: 'x', change: 'dropped', sent: 1 })).toBe(
      'x: not returned by the service',
    )
  })
})
