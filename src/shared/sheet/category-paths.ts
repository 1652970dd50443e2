/**
 * A category cell that lists paths: "Eyewear > Sunglasses, Clearance" (WooCommerce, feeds) or
 * Magento's "Default Category/Gear,Default Category/Gear/Fitness Equipment". Each comma-joined entry
 * split at `step` into its steps, trimmed; empty steps and entries dropped.
 */
export function categoryPaths(text: string, step: string): string[][] {
  return text
    .split(',')
    .map((entry) =>
      entry
        .split(step)
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .filter((steps) => steps.length > 0)
}
