/** Where a feed has an "&" that begins no reference, and the text from it as its line has it. */
export interface BareAmpersand {
  line: number
  column: number
  /** The "&" and up to 23 characters after it, to its line's end or the next tag: "& BODY MIST)". */
  excerpt: string
}

/** A reference XML reads: a named entity or a character's number, up to its ";". */
const REFERENCE = /&(?:#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z_:][\w.:-]*);/y
/** Characters after an "&" within which its reference must end: a longer name is no feed's. */
const LOOKAHEAD = 80
const EXCERPT = 24
/** What begins a CDATA section or a comment (an "&" there is text), and an "&". */
const MARK = /&|<!\[CDATA\[|<!--/g
const CLOSERS = { '<![CDATA[': ']]>', '<!--': '-->' } as const
type Opener = keyof typeof CLOSERS

/**
 * The first "&" of a feed that begins no reference ("HAIR & BODY MIST"), outside CDATA sections
 * and comments, or undefined. XML's parser takes everything from such an "&" to the next ";" as
 * the entity's name, so its own error comes far later (a tag unclosed at the end of the file, in a
 * tryout's feed 3,100 lines on): the feed reader looks for it again when the parser fails.
 */
export async function firstBareAmpersand(
  chunks: AsyncIterable<{ text: string; last: boolean }>,
): Promise<BareAmpersand | undefined> {
  let inside: Opener | undefined
  /** The text not yet passed: `at` in it is at `line` and `column` of the feed. */
  let text = ''
  let at = 0
  let line = 1
  let column = 1
  const passTo = (end: number) => {
    const lastBreak = text.lastIndexOf('\n', end - 1)
    if (lastBreak >= at) {
      for (let i = text.indexOf('\n', at); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) line++
      column = end - lastBreak
    } else column += end - at
    at = end
  }
  for await (const chunk of chunks) {
    text = text.slice(at) + chunk.text
    at = 0
    for (;;) {
      if (inside) {
        const end = text.indexOf(CLOSERS[inside], at)
        if (end < 0) {
          // A closer cut in two waits for the next chunk.
          passTo(Math.max(at, text.length - CLOSERS[inside].length + 1))
          break
        }
        passTo(end + CLOSERS[inside].length)
        inside = undefined
        continue
      }
      // A mark too near the end to be told apart waits for the next chunk (a marker cut in two, or
      // an "&" whose reference may end in it).
      const settled = chunk.last ? text.length : Math.max(at, text.length - LOOKAHEAD)
      MARK.lastIndex = at
      const mark = MARK.exec(text)
      if (!mark || mark.index >= settled) {
        passTo(settled)
        break
      }
      passTo(mark.index)
      if (mark[0] !== '&') {
        inside = mark[0] as Opener
        passTo(at + mark[0].length)
        continue
      }
      REFERENCE.lastIndex = at
      if (!REFERENCE.test(text)) return { line, column, excerpt: excerptAt(text, at) }
      passTo(REFERENCE.lastIndex)
    }
    if (chunk.last) return undefined
  }
  return undefined
}

/** The "&" at `at` and what follows it on its line, up to the next tag: "& BODY MIST)". */
function excerptAt(text: string, at: number): string {
  const after = text.slice(at, at + EXCERPT)
  return after.split(/[<\r\n]/)[0]!.trimEnd()
}
