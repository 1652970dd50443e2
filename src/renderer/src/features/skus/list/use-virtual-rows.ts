import { computed, onBeforeUnmount, onMounted, ref, type Ref } from 'vue'
import { rowsOnScreen, rowsPerPage, rowsToDraw, scrollToReveal, type Viewport } from './virtual-rows.ts'

export interface VirtualRowsOptions {
  total: Readonly<Ref<number>>
  /** The row the keyboard is on: always drawn. */
  active: Readonly<Ref<number>>
  initialScrollTop: number
  /** Once a frame at most while scrolling, with the new offset. */
  onScrolled(top: number): void
}

/**
 * The virtual rows of a scrolling grid element with a sticky header: follows the element's scroll
 * offset and size and says which rows are on screen and which to draw.
 */
export function useVirtualRows(
  grid: Readonly<Ref<HTMLElement | undefined>>,
  head: Readonly<Ref<HTMLElement | undefined>>,
  options: VirtualRowsOptions,
) {
  // Back from the editor, the rows drawn first are those where the list was.
  const scrollTop = ref(options.initialScrollTop)
  /**
   * Until the grid is laid out, the window's height stands in for the grid's, which is never
   * taller: the list's first frame lays out and paints the rows on screen with the rest of the
   * page, rather than laying the page out, drawing the rows it then found room for and laying it
   * out again, all in one task of 50–60 ms (issue #37); nor is the page laid out in the middle of
   * its mount to measure it.
   */
  const viewport = ref(window.innerHeight)
  const headHeight = ref(40)
  /**
   * Whether the grid's true size is known (its first layout). From then the rows beyond the
   * screen's edges are drawn too: about as many as the window's height drew before, so the first
   * measure changes few rows or none.
   */
  const measured = ref(false)

  const onScreen = computed(() =>
    rowsOnScreen(
      { scrollTop: scrollTop.value, height: viewport.value, headHeight: headHeight.value },
      options.total.value,
    ),
  )
  const drawn = computed(() =>
    rowsToDraw(onScreen.value, options.total.value, options.active.value, measured.value),
  )

  let frame = 0
  function onScroll() {
    if (frame) return
    frame = requestAnimationFrame(() => {
      frame = 0
      if (!grid.value) return
      scrollTop.value = grid.value.scrollTop
      options.onScrolled(scrollTop.value)
    })
  }

  // Its first call comes once the grid is laid out, before it is painted: the true sizes, read
  // where reading them costs no layout of its own.
  const resize = new ResizeObserver(() => {
    viewport.value = grid.value?.clientHeight ?? viewport.value
    headHeight.value = head.value?.offsetHeight ?? headHeight.value
    measured.value = true
  })

  onMounted(() => {
    if (!grid.value) return
    resize.observe(grid.value)
    // Back from the editor: where the list was (setting it lays the page out, once).
    if (options.initialScrollTop > 0) {
      grid.value.scrollTop = options.initialScrollTop
      scrollTop.value = grid.value.scrollTop
    }
  })

  onBeforeUnmount(() => {
    resize.disconnect()
    cancelAnimationFrame(frame)
  })

  /** Scrolls just enough for the row to be whole on screen, below the sticky header. */
  function reveal(position: number) {
    const el = grid.value
    if (!el) return
    const now: Viewport = { scrollTop: el.scrollTop, height: el.clientHeight, headHeight: headHeight.value }
    const top = scrollToReveal(position, now)
    if (top !== now.scrollTop) el.scrollTop = top
    scrollTop.value = el.scrollTop
  }

  function scrollToTop() {
    if (grid.value) grid.value.scrollTop = 0
    scrollTop.value = 0
  }

  const pageRows = () => rowsPerPage({ height: viewport.value, headHeight: headHeight.value })

  return { onScreen, drawn, onScroll, reveal, scrollToTop, pageRows }
}
