import { START_LOCATION, type RouterScrollBehavior } from 'vue-router'

/** What the person does that says they have taken over the scroll: the wait for a place ends. */
const TAKING_OVER = ['wheel', 'pointerdown', 'keydown', 'touchstart'] as const

/** Whether the page is tall enough for the window to be scrolled `top` down. */
function reaches(top: number): boolean {
  return document.documentElement.scrollHeight - window.innerHeight >= top
}

/**
 * Where the window is scrolled as the page changes, for every page in one place (the router's
 * `scrollBehavior`): a page opened starts at its top, never where the last page was scrolled.
 * Back and Forward return to where the page was: at once when it is already that tall, else once
 * it has drawn what it reads (Settings its profiles, an editor its draft), starting at the top
 * meanwhile; a person who scrolls, clicks or types in the meantime keeps the page where they are.
 * The SKU list scrolls its own grid, not the window, and keeps its place itself.
 */
export const pageScroll: RouterScrollBehavior = (_to, from, saved) => {
  // A window's first page is at its top already (the router keeps the browser from restoring a
  // scroll): scrolling there would make the browser lay the page out inside the task that mounts
  // it, before its first frame (issue #37).
  if (!saved) return from === START_LOCATION ? false : { top: 0 }
  const place = saved
  if (reaches(place.top)) return place
  window.scrollTo(0, 0)
  return new Promise((resolve) => {
    const observer = new ResizeObserver(() => {
      if (reaches(place.top)) settle(place)
    })
    const giveUp = () => settle(false)
    function settle(found: typeof place | false) {
      observer.disconnect()
      for (const type of TAKING_OVER) window.removeEventListener(type, giveUp, true)
      resolve(found)
    }
    for (const type of TAKING_OVER) window.addEventListener(type, giveUp, { capture: true, passive: true })
    observer.observe(document.body)
  })
}
