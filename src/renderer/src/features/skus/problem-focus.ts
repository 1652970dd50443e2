/**
 * Taking focus to the control a problem is about, from a summary that names it (the editors'
 * errors badge, the app editor's "What needs a look"). Controls are found by the ids the forms
 * give them (`field-a-b-0`, form-context.ts), so this needs no reference to the components.
 */

/**
 * Focuses the first of `ids` that is on the page, opening any closed `<details>` around it first
 * (focus cannot go into a closed one). False when none is there.
 */
export function focusFirstOf(ids: ReadonlyArray<string | false | undefined>): boolean {
  for (const id of ids) {
    const element = id ? document.getElementById(id) : null
    if (!element) continue
    let around = element.closest('details')
    while (around) {
      around.open = true
      around = around.parentElement?.closest('details') ?? null
    }
    element.focus()
    return true
  }
  return false
}

/**
 * Focuses the SKU editor's control for the value at a dotted path (`arEffect.envSettings.intensity`,
 * `effectAssets3D.0.url`, `effectAssets2D.3`): its input, its slot, or for a whole list or section
 * its problems; failing those, the nearest enclosing value's. The draft's own problems (path '')
 * are said at the top of the form.
 */
export function focusSkuField(path: string): boolean {
  const segments = path === '' ? [] : path.split('.')
  for (let depth = segments.length; depth >= 0; depth--) {
    const dashed = segments.slice(0, depth).join('-')
    if (focusFirstOf([depth > 0 && `field-${dashed}`, depth > 0 && `slot-${dashed}`, `problems-${dashed}`]))
      return true
  }
  return false
}
