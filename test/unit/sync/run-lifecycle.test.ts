import { describe, expect, it } from 'vitest'
import { createChangeSignal } from '#shared/sync/change-signal.ts'
import { createRunLifecycle } from '#shared/sync/run-lifecycle.ts'
import type { RunStatus } from '#shared/sync/run.ts'
import { deferred, drained } from './engine-harness.ts'

function lifecycleWith(waitUntilOnline?: (signal: AbortSignal) => Promise<void>) {
  const lines: string[] = []
  const statuses: RunStatus[] = []
  const lifecycle = createRunLifecycle({
    changed: createChangeSignal(),
    log: (line) => lines.push(line),
    onStatus: (status) => statuses.push(status),
    waitUntilOnline,
  })
  return { lifecycle, lines, statuses }
}

describe('a run’s lifecycle', () => {
  it('a pause ends the waits of this stretch and holds requests; a resume starts a new stretch', () => {
    const { lifecycle, lines } = lifecycleWith()
    const first = lifecycle.haltSignal
    lifecycle.doubtfulInARow = 2
    expect(lifecycle.holdsRequests()).toBe(false)
    lifecycle.pause('requested', 'no new requests.')
    expect(first.aborted).toBe(true)
    expect(lifecycle.status).toEqual({ state: 'paused', reason: 'requested', message: 'no new requests.' })
    expect(lifecycle.holdsRequests()).toBe(true)
    // A second Pause says nothing more.
    lifecycle.pause('requested', 'no new requests.')
    expect(lines).toEqual(['Paused: no new requests.'])
    lifecycle.resume()
    expect(lifecycle.status).toEqual({ state: 'running' })
    expect(lifecycle.haltSignal.aborted).toBe(false)
    expect(lifecycle.doubtfulInARow).toBe(0)
  })

  it('holds requests while an outcome that halts the run is being written', () => {
    const { lifecycle } = lifecycleWith()
    lifecycle.haltsBeingWritten += 1
    expect(lifecycle.holdsRequests()).toBe(true)
    lifecycle.haltsBeingWritten -= 1
    expect(lifecycle.holdsRequests()).toBe(false)
  })

  it('cancels once, and an ended run can be neither paused, resumed nor cancelled', () => {
    const { lifecycle, statuses } = lifecycleWith()
    expect(lifecycle.cancel()).toBe(true)
    expect(lifecycle.cancel()).toBe(false)
    expect(lifecycle.isOver()).toBe(true)
    lifecycle.pause('busy', 'later')
    expect(lifecycle.status.state).toBe('running')

    const ended = lifecycleWith()
    ended.lifecycle.endWith({ state: 'stopped', message: 'wrong address' })
    ended.lifecycle.endWith({ state: 'stopped', message: 'a second reason' })
    expect(ended.lifecycle.ending).toEqual({ state: 'stopped', message: 'wrong address' })
    expect(ended.lifecycle.cancel()).toBe(false)
    ended.lifecycle.resume()
    expect(ended.statuses).toEqual([{ state: 'stopped', message: 'wrong address' }])
    expect(statuses).toEqual([])
  })

  it('after an offline pause, resumes by itself once the network is back, unless resumed first', async () => {
    const back = deferred<void>()
    const waits: AbortSignal[] = []
    const { lifecycle, lines } = lifecycleWith((signal) => {
      waits.push(signal)
      return back.promise
    })
    lifecycle.pause('offline', 'the service cannot be reached.')
    expect(waits).toHaveLength(1)
    back.resolve()
    await drained()
    expect(lifecycle.status).toEqual({ state: 'running' })
    expect(lines.at(-1)).toBe('The network is back: sending again.')

    const never = lifecycleWith((signal) => {
      waits.push(signal)
      return new Promise(() => {})
    })
    never.lifecycle.pause('offline', 'offline')
    never.lifecycle.resume()
    expect(waits.at(-1)!.aborted).toBe(true)
  })
})
