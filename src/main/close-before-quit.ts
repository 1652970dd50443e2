import type { App } from 'electron'

/** Something main must close before the app quits, named for the log if it fails. */
export interface Closer {
  name: string
  close(): Promise<void>
}

/**
 * Quitting waits for what main holds open to close: the embedded sandbox's last write (what it
 * answered 201 for is on disk), the team workspace's replica. One `will-quit` listener closes them
 * all, each whatever the others do, then quits once: a listener each would quit as many times.
 */
export function closeBeforeQuit(
  app: Pick<App, 'on' | 'quit'>,
  onError: (what: string, error: unknown) => void,
) {
  const closers: Closer[] = []
  let closed = false
  app.on('will-quit', (event) => {
    if (closed || closers.length === 0) return
    event.preventDefault()
    void Promise.all(
      closers.map((closer) =>
        closer.close().catch((error: unknown) => onError(`${closer.name} could not be closed`, error)),
      ),
    ).finally(() => {
      closed = true
      app.quit()
    })
  })
  return {
    add(closer: Closer) {
      closers.push(closer)
    },
  }
}
