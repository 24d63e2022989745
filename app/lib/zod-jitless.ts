import { config } from "zod";

/**
 * The browser validates forms with the server's zod schemas. Zod compiles object parsers with `new Function`
 * unless told not to, and merely probing for that breaks the page's CSP (script-src without 'unsafe-eval',
 * functions/middleware/security-headers.ts) and reports a violation. Imported first by app/root.tsx, so it runs
 * before any schema is built.
 */
config({ jitless: true });
