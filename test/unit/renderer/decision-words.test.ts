import { describe, expect, it } from 'vitest'
import { decisionPrompt } from '#renderer/features/sync/decision-words.ts'

describe('the words of a decision’s confirmation', () => {
  it('counts SKUs and names the place, for either choice', () => {
    expect(decisionPrompt('resend', { kind: 'skus', count: 6, place: 'Production' })).toEqual({
      title: 'Send 6 SKUs again?',
      risk: 'If the service already created them, each becomes a second copy on Production: 6 duplicates.',
      advice: 'Send again only once you have looked on Production and found them missing.',
      confirm: 'Send 6 SKUs again',
    })
    expect(decisionPrompt('created', { kind: 'skus', count: 1_200, place: 'Staging' })).toEqual({
      title: 'Mark 1,200 SKUs as created without sending?',
      risk: 'If the service did not create them, they will be missing on Staging and this app will not offer them again.',
      advice: 'Mark as created only once you have found them on Staging.',
      confirm: 'Mark 1,200 SKUs as created',
    })
  })

  it('one SKU, and an app by its name', () => {
    expect(decisionPrompt('resend', { kind: 'skus', count: 1, place: 'Sandbox' })).toMatchObject({
      title: 'Send 1 SKU again?',
      risk: 'If the service already created it, it becomes a second copy on Sandbox: a duplicate.',
    })
    expect(
      decisionPrompt('resend', { kind: 'apps', count: 1, label: 'Glow Check', place: 'Sandbox' }),
    ).toMatchObject({
      title: 'Send the app “Glow Check” again?',
      risk: 'If the service already created it, it becomes a second app on Sandbox: a duplicate.',
      confirm: 'Send the app “Glow Check” again',
    })
    expect(
      decisionPrompt('created', { kind: 'apps', count: 1, label: 'Glow Check', place: 'Sandbox' }),
    ).toMatchObject({
      title: 'Mark the app “Glow Check” as created without sending?',
      risk: 'If the service did not create it, it will be missing on Sandbox and this app will not offer it again.',
      confirm: 'Mark the app “Glow Check” as created',
    })
  })
})
