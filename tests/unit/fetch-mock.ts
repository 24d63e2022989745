import { vi } from "vitest";

export interface RecordedCall {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

type Reply = Response | (() => Response) | Error;

/** Replaces global fetch with a router of path → reply and records every call. */
export function mockFetch(routes: Record<string, Reply | Reply[]>) {
  const calls: RecordedCall[] = [];
  const queues = new Map(Object.entries(routes).map(([key, reply]) => [key, Array.isArray(reply) ? [...reply] : [reply]]));
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    calls.push({ url, method: init.method ?? "GET", headers: new Headers(init.headers), body: init.body });
    const path = url.split("?")[0];
    const queue = queues.get(path);
    if (!queue?.length) throw new Error(`unexpected fetch ${url}`);
    const reply = queue.length > 1 ? queue.shift()! : queue[0];
    if (reply instanceof Error) throw reply;
    return typeof reply === "function" ? reply() : reply.clone();
  });
  vi.stubGlobal("fetch", fetchMock);
  return calls;
}

export const json = (body: unknown, status = 200, statusText = "") =>
  new Response(JSON.stringify(body), { status, statusText, headers: { "Content-Type": "application/json" } });

export const nowSeconds = () => Math.floor(Date.now() / 1000);
