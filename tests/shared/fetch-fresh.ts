/**
 * fetch, once more when a kept-alive socket turns out closed: the local server drops idle connections
 * after a few seconds, and a test that spent a while (making media, driving the browser) can pick such a
 * socket. Only for set-up calls, where sending one twice is harmless (at worst one more empty object).
 */
export async function fetchFresh(url: string | URL, init: RequestInit) {
  try {
    return await fetch(url, init);
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    if (code !== "UND_ERR_SOCKET" && code !== "ECONNRESET") throw err;
    return fetch(url, init);
  }
}
