/**
 * A value built on its first use and kept: for what a module would otherwise build as it loads,
 * which every program importing it pays for whether it uses it or not (the window's start paid
 * tens of milliseconds for the contract's schemas and tables it never read, issue #37).
 */
export function lazily<T>(build: () => T): () => T {
  let built: { value: T } | undefined
  return () => (built ??= { value: build() }).value
}
