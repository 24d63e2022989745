/**
 * fetch, again when a kept-alive socket turns out closed: the local server drops idle connections after a
 * few seconds, and a test that spent a while (making media, driving the browser) can find every pooled
 * socket stale. Each failed try discards one stale socket, so a few tries end on a fresh connection.
 * Only for set-up calls, where sending one twice is harmless (at worst one more empty object).
 */
export async function fetchFresh(url: string | URL, init: RequestInit, tries = 4): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    if (tries <= 1 || (code !== "UND_ERR_SOCKET" && code !== "ECONNRESET")) throw err;
    return fetchFresh(url, init, tries - 1);
  }
}
