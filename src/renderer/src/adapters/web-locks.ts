/** The little of the Web Locks API the page uses (`navigator.locks`: one lock per run, per open editor). */
export type Locks = {
  request(
    name: string,
    options: { ifAvailable?: boolean },
    callback: (lock: unknown) => Promise<unknown>,
  ): Promise<unknown>
}

/** The page's Web Locks; undefined where there are none (Node, in unit tests). */
export function webLocks(): Locks | undefined {
  return (globalThis.navigator as (Navigator & { locks?: Locks }) | undefined)?.locks
}
