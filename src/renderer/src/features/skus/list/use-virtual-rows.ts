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
  const scrollTop = ref(0)
  // Until the grid is laid out, the window's height stands in for the grid's (what to read).
  const viewport = ref(window.innerHeight)
  const headHeight = ref(40)
  /**
   * Whether the grid has been laid out once. Until then only the active row is drawn (focus may
   * go to it); the rows on screen come with the first measure, in the frame that lays the page
   * out, so the page's mount and its rows are two tasks rather than one (issue #37), and the page
   * is not laid out in the middle of its mount to measure it.
   */
  const measured = ref(false)
  /**
   * Whether the rows beyond the screen's edges are drawn too: from the task after the first
   * frame, which then has only the rows a person sees to build and lay out (issue #37).
   */
  const overscan = ref(false)

  const onScreen = computed(() =>
    rowsOnScreen(
      { scrollTop: scrollTop.value, height: viewport.value, headHeight: headHeight.value },
      options.total.value,
    ),
  )
  const drawn = computed(() => {
    const { total, active } = options
    if (measured.value) return rowsToDraw(onScreen.value, total.value, active.value, overscan.value)
    return total.value > 0 ? [Math.min(active.value, total.value - 1)] : []
  })

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
  let overscanTimer: ReturnType<typeof setTimeout> | undefined
  const resize = new ResizeObserver(() => {
    viewport.value = grid.value?.clientHeight ?? viewport.value
    headHeight.value = head.value?.offsetHeight ?? headHeight.value
    if (!measured.value) overscanTimer = setTimeout(() => (overscan.value = true))
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
    clearTimeout(overscanTimer)
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
