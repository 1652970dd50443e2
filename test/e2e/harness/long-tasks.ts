import type { BrowserContext, Page } from '@playwright/test'

/**
 * The page's long tasks: stretches of 50 ms or more on its main thread (Chromium's Long Tasks
 * API), during which a key pressed or a click waits and nothing on screen moves. What a browser
 * test asserts about a freeze and what the benchmarks count. Only the page's own tasks count:
 * Chromium leaves out what the DevTools protocol runs in it (a `page.evaluate`, the answers of the
 * harness's `window.api`), which the app's window does not have.
 */

export interface LongTask {
  /** In the page's clock (`performance.now()`), ms. */
  startTime: number
  duration: number
}

/** Records every long task of the pages of `target` from before their own scripts run. */
export async function watchLongTasks(target: BrowserContext | Page): Promise<void> {
  await target.addInitScript(recordLongTasks)
}

/** The page's clock now, to mark where a stretch of long tasks to look at begins. */
export const pageNow = (page: Page): Promise<number> =>
  page.evaluate(() => (globalThis as unknown as { performance: { now(): number } }).performance.now())

/** The long tasks recorded that ended after `since` (the page's clock), in order. */
export async function longTasksSince(page: Page, since: number): Promise<LongTask[]> {
  // The observer hears of a task a little after it ends: take what it has not yet delivered too.
  const tasks = await page.evaluate(() => (globalThis as unknown as Recorded).__takeLongTasks?.() ?? [])
  return tasks.filter((task) => task.startTime + task.duration > since)
}

/** The longest of `tasks`, when there is one. */
export const longestOf = (tasks: readonly LongTask[]): LongTask | undefined =>
  tasks.reduce<LongTask | undefined>(
    (longest, task) => (task.duration > (longest?.duration ?? 0) ? task : longest),
    undefined,
  )

/** "2 long tasks, the longest 4,120 ms at 812 ms (all: 96 ms at 40 ms, 4,120 ms at 812 ms)", from `since`. */
export function longTasksText(tasks: readonly LongTask[], since: number): string {
  const longest = longestOf(tasks)
  if (!longest) return 'no long task'
  const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`
  const at = (task: LongTask) => `${ms(task.duration)} at ${ms(task.startTime - since)}`
  return `${tasks.length} long task${tasks.length === 1 ? '' : 's'}, the longest ${at(longest)} (all: ${tasks.map(at).join(', ')})`
}

interface Recorded {
  /** Every long task so far, those the observer holds undelivered included. */
  __takeLongTasks?: () => LongTask[]
}

/** Init script: self-contained (it is serialised into the page). */
function recordLongTasks() {
  interface Entries {
    getEntries(): LongTask[]
  }
  const page = globalThis as unknown as {
    PerformanceObserver: new (callback: (list: Entries) => void) => {
      observe(options: { type: string; buffered: boolean }): void
      takeRecords(): LongTask[]
    }
  }
  const tasks: LongTask[] = []
  const keep = (entries: LongTask[]) => {
    for (const { startTime, duration } of entries) tasks.push({ startTime, duration })
  }
  const observer = new page.PerformanceObserver((list) => keep(list.getEntries()))
  observer.observe({ type: 'longtask', buffered: true })
  const take = () => {
    keep(observer.takeRecords())
    return tasks
  }
  Object.defineProperty(globalThis, '__takeLongTasks', { value: take })
}
