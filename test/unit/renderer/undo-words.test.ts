import { describe, expect, it } from 'vitest'
import { importUndoneText, undoneActionsText } from '#renderer/words/undo.ts'

const none = { restored: 0, removed: 0, keptEdited: 0, keptSent: 0 }

describe('what an undo says it did', () => {
  it('agrees with its counts, one draft or several', () => {
    expect(undoneActionsText(1, { ...none, removed: 2 })).toBe('2 drafts it added were removed.')
    expect(undoneActionsText(1, { ...none, removed: 1 })).toBe('1 draft it added was removed.')
    expect(undoneActionsText(1, { ...none, restored: 3, keptEdited: 1 })).toBe(
      '3 drafts restored. 1 draft edited since was kept as it is.',
    )
    expect(undoneActionsText(1, { ...none, keptEdited: 2, keptSent: 1 })).toBe(
      '2 drafts edited since were kept as they are. 1 draft queued or sent since was kept as it is.',
    )
    expect(undoneActionsText(2, { ...none, restored: 1, removed: 1 })).toBe(
      '2 actions undone. 1 draft restored. 1 draft they added was removed.',
    )
    expect(undoneActionsText(1, none)).toBe('Nothing left to undo.')
  })

  it('says an import’s own undo in the same words', () => {
    expect(importUndoneText({ ...none, removed: 168 })).toBe('Import undone: 168 drafts removed.')
    expect(importUndoneText({ restored: 1, removed: 3, keptEdited: 1, keptSent: 2 })).toBe(
      'Import undone: 3 drafts removed. 1 draft put back as it was. 1 draft edited since was kept as it is. ' +
        '2 drafts queued or sent since were kept as they are.',
    )
  })
})
