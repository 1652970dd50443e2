import { computed, inject, provide, type ComputedRef, type InjectionKey, type Ref } from 'vue'
import { getAt, setAt, type PathSegment } from '#shared/json-path.ts'
import type { ProblemIndex } from './problem-index.ts'

/**
 * What every control of a payload form shares: the document being edited, its problems, and the
 * one way to change it. Controls receive only their path, so the form can nest to any depth.
 */
export interface FormContext {
  read(path: readonly PathSegment[]): unknown
  write(path: readonly PathSegment[], value: unknown): void
  problems: ComputedRef<ProblemIndex>
}

const key: InjectionKey<FormContext> = Symbol('payload form')

export function provideForm(document: Ref<Record<string, unknown>>, problems: ComputedRef<ProblemIndex>) {
  provide(key, {
    read: (path) => getAt(document.value, path),
    write: (path, value) => setAt(document.value, path, value),
    problems,
  })
}

export function useForm(): FormContext {
  const context = inject(key)
  if (!context) throw new Error('A form control must be inside a payload form')
  return context
}

/**
 * One control's place in the form: the form, the id its elements are named by, its value and
 * its problems (keyed by its dotted path, `a.b.0`: errors, missing-field `warnings`, other
 * warnings as `notes`), all following `path`, and what describes the control to a screen reader
 * (`describedBy`: its help, when `hasHelp`, its errors and notes, shown as `<id>-help`,
 * `<id>-errors` and `<id>-notes`).
 */
export function useFormField(path: () => readonly PathSegment[], hasHelp: () => boolean = () => false) {
  const form = useForm()
  const dotted = computed(() => path().join('.'))
  const id = computed(() => `field-${path().join('-')}`)
  const errors = computed(() => form.problems.value.errors.get(dotted.value) ?? [])
  const notes = computed(() => form.problems.value.notes.get(dotted.value) ?? [])
  return {
    form,
    id,
    value: computed(() => form.read(path())),
    errors,
    warnings: computed(() => form.problems.value.warnings.get(dotted.value) ?? []),
    notes,
    describedBy: computed(
      () =>
        [
          hasHelp() && `${id.value}-help`,
          errors.value.length && `${id.value}-errors`,
          notes.value.length && `${id.value}-notes`,
        ]
          .filter(Boolean)
          .join(' ') || undefined,
    ),
  }
}
