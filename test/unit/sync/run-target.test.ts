import { describe, expect, it } from 'vitest'
import { runTargetProblem } from '#shared/sync/run-target.ts'

const run = { profileId: 'local', profileName: 'Local service', url: 'https://api.example.com' }

describe('where a resumed run may send', () => {
  it('to the address it was started for, a trailing slash aside', () => {
    expect(runTargetProblem(run, [{ id: 'local', kind: 'service', url: 'https://api.example.com/' }])).toBe(
      undefined,
    )
  })

  it('not to the address its profile points at now', () => {
    expect(runTargetProblem(run, [{ id: 'local', kind: 'service', url: 'https://other.example.com' }])).toBe(
      'This run was started for https://api.example.com; the profile now points at https://other.example.com. Cancel it and start a new sync.',
    )
  })

  it('nowhere when its profile no longer exists', () => {
    expect(
      runTargetProblem(run, [{ id: 'sandbox', kind: 'embedded-sandbox', url: 'https://api.example.com' }]),
    ).toMatch(/“Local service”, which no longer exists\. Cancel it and start a new sync\.$/)
  })

  it('the embedded sandbox is the same place on any loopback port (a new one every app start)', () => {
    const sandboxRun = { profileId: 'sandbox', profileName: 'Sandbox', url: 'http://127.0.0.1:41000' }
    expect(
      runTargetProblem(sandboxRun, [
        { id: 'sandbox', kind: 'embedded-sandbox', url: 'http://127.0.0.1:52000' },
      ]),
    ).toBe(undefined)
  })
})
