/** One line of a benchmark's output, as the testing guide describes it. */
export interface BenchResult {
  scenario: string
  metric: string
  value: number
  unit: string
  baseline: number
  ratio: number
}

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places

export function result(
  scenario: string,
  metric: string,
  value: number,
  baseline: number,
  unit = 'ms',
): BenchResult {
  return {
    scenario,
    metric,
    value: round(value, 1),
    unit,
    baseline: round(baseline, 1),
    ratio: round(value / baseline, 2),
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** Benchmarks speak on stderr; stdout carries only the result lines. */
export function log(message: string): void {
  process.stderr.write(`${message}\n`)
}
