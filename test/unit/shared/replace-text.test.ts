import { describe, expect, it } from 'vitest'
import { replacedText } from '#shared/values/replace-text.ts'

const MOVE = { find: 'https://old-cdn/', replace: 'https://cdn.example.net/', mode: 'start' } as const

describe('find and replace within a field', () => {
  it('moves an address to another start, and only at its start', () => {
    expect(replacedText('https://old-cdn/models/frame.glb', MOVE)).toBe(
      'https://cdn.example.net/models/frame.glb',
    )
    // The same text further along an address is not its start: left alone.
    expect(replacedText('https://mirror.example.com/https://old-cdn/frame.glb', MOVE)).toBeUndefined()
  })

  it('replaces the text anywhere, every time it occurs', () => {
    const rule = { find: 'old-cdn', replace: 'cdn', mode: 'text' } as const
    expect(replacedText('https://old-cdn/old-cdn.glb', rule)).toBe('https://cdn/cdn.glb')
    expect(replacedText('Aviator Gold', { find: 'Gold', replace: '', mode: 'text' })).toBe('Aviator ')
  })

  it('changes nothing when the value does not hold the text, or would come out the same', () => {
    expect(replacedText('https://cdn.example.com/a.glb', MOVE)).toBeUndefined()
    expect(replacedText('Aviator', { find: 'Round', replace: 'Oval', mode: 'text' })).toBeUndefined()
    // Capitals count: an address is matched as it is written.
    expect(replacedText('HTTPS://OLD-CDN/a.glb', MOVE)).toBeUndefined()
    expect(replacedText('abc', { find: 'b', replace: 'b', mode: 'text' })).toBeUndefined()
  })

  it('changes nothing of what is not text, nor for an empty find', () => {
    expect(replacedText(undefined, MOVE)).toBeUndefined()
    expect(replacedText(12, { find: '1', replace: '2', mode: 'text' })).toBeUndefined()
    expect(replacedText('abc', { find: '', replace: 'x', mode: 'text' })).toBeUndefined()
    expect(replacedText('abc', { find: '', replace: 'x', mode: 'start' })).toBeUndefined()
  })
})
