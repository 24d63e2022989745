import { createContext, useContext } from "react";

/**
 * This request's Content-Security-Policy nonce (worker.ts makes one per request; docs/decisions/022).
 * app/entry.server.tsx provides it for the server render; in the browser it is empty, as browsers hide a
 * nonce attribute's value from the page anyway, and scripts added after hydration are the app's own files.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export const useNonce = () => useContext(NonceContext);
