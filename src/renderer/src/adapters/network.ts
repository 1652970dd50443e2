import type { WaitUntilOnline } from '#shared/sync/ports.ts'

export interface OnlineWaitOptions {
  /** Asks whether the service answers at all (any answer but "unreachable"). */
  probe(): Promise<boolean>
  /** The first wait between probes; doubled up to `maxDelayMs`. */
  firstDelayMs?: number
  maxDelayMs?: number
  /** The page's view of the network; the window's by default. */
  online?: () => boolean
  events?: Pick<Window, 'addEventListener' | 'removeEventListener'>
}

/**
 * Resolves when the network is likely back: at once on the window's `online` event, or when a
 * probe (an empty batch: it creates nothing) reaches the service. While the page says it is
 * offline no probe is sent; the `online` event ends the wait. Rejects when the signal fires.
 */
export function onlineWaiter({
  probe,
  firstDelayMs = 5_000,
  maxDelayMs = 60_000,
  online = () => navigator.onLine,
  events = window,
}: OnlineWaitOptions): WaitUntilOnline {
  return (signal) =>
    new Promise<void>((resolve, reject) => {
      let delay = firstDelayMs
      let timer: ReturnType<typeof setTimeout> | undefined
      const finish = (ok: boolean) => {
        clearTimeout(timer)
        events.removeEventListener('online', back)
        signal.removeEventListener('abort', aborted)
        if (ok) resolve()
        else reject(new DOMException('The wait for the network was ended.', 'AbortError'))
      }
      const back = () => finish(true)
      const aborted = () => finish(false)
      const schedule = () => {
        timer = setTimeout(async () => {
          if (signal.aborted) return
          if (online()) {
            const reached = await probe().catch(() => false)
            if (signal.aborted) return
            if (reached) return finish(true)
          }
          delay = Math.min(maxDelayMs, delay * 2)
          schedule()
        }, delay)
      }
      if (signal.aborted) return aborted()
      events.addEventListener('online', back)
      signal.addEventListener('abort', aborted, { once: true })
      schedule()
    })
}

/** Whether the page says it is offline now (it can be wrong the other way: online, yet no route). */
export function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false
}

/**
 * Tells when the page goes offline and when it is back: the window's own events, the one place the
 * app listens to them (the engine's wait above listens for `online` while a run waits for it).
 */
export function watchNetwork({ offline, online }: { offline(): void; online(): void }): void {
  if (typeof window === 'undefined') return
  window.addEventListener('offline', offline)
  window.addEventListener('online', online)
}
