import { z } from 'zod'

// The renderer runs under a CSP without 'unsafe-eval'. Zod's object fast path compiles code with
// `new Function`; jitless mode skips it (and skips even the probe, which a strict CSP would report
// as a violation). Every module of the project imports `z` from here so this runs first.
z.config({ jitless: true })

export { z }
