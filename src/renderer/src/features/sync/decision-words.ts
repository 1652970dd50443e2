import { draftKind } from '#shared/sync/kinds.ts'
import type { SyncKind } from '#shared/sync/ports.ts'
import type { Resolution } from '#renderer/db/sync-runs.ts'
import { count } from '#renderer/words/counting.ts'

/** What the confirmation of a decision asks, what it risks, and what its button does. */
export interface DecisionPrompt {
  title: string
  /** The risk, counted, at the place the batch went. */
  risk: string
  /** When the choice is the right one. */
  advice: string
  confirm: string
}

export interface DecisionSubject {
  kind: SyncKind
  /** Items in the batch. */
  count: number
  /** For a kind sent one a request (apps): the item's name. */
  label?: string
  /** The destination's name ("Sandbox", "Production"). */
  place: string
}

/**
 * The words of a decision's confirmation. Both choices can go wrong in a way nothing in the app
 * undoes (a second copy on the service, or an item the app will never offer again), so each says
 * which, and how many, before it is taken.
 */
export function decisionPrompt(choice: Resolution, subject: DecisionSubject): DecisionPrompt {
  const definition = draftKind(subject.kind)
  const one = subject.count === 1
  const { noun, onePerRequest } = definition
  // An app is named ("the app “Spring campaign”"); SKUs are counted ("6 SKUs").
  const what = onePerRequest
    ? `the ${noun} “${subject.label ?? ''}”`
    : `${count(subject.count)} ${noun}${one ? '' : 's'}`
  const single = onePerRequest || one
  const it = single ? 'it' : 'them'
  const place = subject.place
  if (choice === 'resend') {
    const duplicates = single ? 'a duplicate' : `${count(subject.count)} duplicates`
    return {
      title: `Send ${what} again?`,
      risk: single
        ? `If the service already created ${it}, it becomes a second ${onePerRequest ? noun : 'copy'} on ${place}: ${duplicates}.`
        : `If the service already created ${it}, each becomes a second copy on ${place}: ${duplicates}.`,
      advice: `Send again only once you have looked on ${place} and found ${it} missing.`,
      confirm: `Send ${what} again`,
    }
  }
  return {
    title: `Mark ${what} as created without sending?`,
    risk: `If the service did not create ${it}, ${single ? 'it' : 'they'} will be missing on ${place} and this app will not offer ${it} again.`,
    advice: `Mark as created only once you have found ${it} on ${place}.`,
    confirm: `Mark ${what} as created`,
  }
}
