import { describe, expect, it } from 'vitest'
import { runTargetProblem } from '#shared/sync/run-target.ts'
import { EMBEDDED_SANDBOX_DESTINATION, destinationOf } from '#shared/sync/destination.ts'

const run = {
  profileId: 'local',
  profileName: 'Local service',
  url: 'https://api.example.com',
  destination: 'https://api.example.com',
}

/** A service profile as main and the page see it now: its address and the destination that is. */
function service(id: string, url: string) {
  return { id, url, destination: destinationOf({ kind: 'service', baseUrl: url }, '') }
}

describe('where a resumed run may send', () => {
  it('to the destination it was started for, a trailing slash aside', () => {
    expect(runTargetProblem(run, [service('local', 'https://api.example.com/')])).toBe(undefined)
  })

  it('not to the address its profile points at now', () => {
    expect(runTargetProblem(run, [service('local', 'https://other.example.com')])).toBe(
      'This run was started for https://api.example.com; the profile now points at https://other.example.com. Cancel it and start a new sync.',
    )
  })

  it('nowhere when its profile no longer exists', () => {
    expect(
      runTargetProblem(run, [
        { id: 'sandbox', url: 'https://api.example.com', destination: EMBEDDED_SANDBOX_DESTINATION },
      ]),
    ).toMatch(/“Local service”, which no longer exists\. Cancel it and start a new sync\.$/)
  })

  it('the embedded sandbox is the same place on any loopback port (a new one every app start)', () => {
    const sandboxRun = {
      profileId: 'sandbox',
      profileName: 'Sandbox',
      url: 'http://127.0.0.1:41000',
      destination: EMBEDDED_SANDBOX_DESTINATION,
    }
    const sandboxNow = 'http://127.0.0.1:52000'
    expect(
      runTargetProblem(sandboxRun, [
        {
          id: 'sandbox',
          url: sandboxNow,
          destination: destinationOf({ kind: 'embedded-sandbox' }, sandboxNow),
        },
      ]),
    ).toBe(undefined)
  })

  it('a run to the embedded sandbox is refused once its profile points at a service, whatever the port', () => {
    const sandboxRun = {
      profileId: 'custom',
      profileName: 'Custom',
      url: 'http://127.0.0.1:41000',
      destination: EMBEDDED_SANDBOX_DESTINATION,
    }
    expect(runTargetProblem(sandboxRun, [service('custom', 'https://api.example.com')])).toBe(
      'This run was started for http://127.0.0.1:41000; the profile now points at https://api.example.com. Cancel it and start a new sync.',
    )
  })
})
