import { vi } from "vitest";

/**
 * A stand-in for the API's side of the upload protocol at the fetch boundary (the real one is covered by the
 * API tests): assets, uploads with parts, aborts and deletes, recorded so the queue's tests can assert on
 * what reached the server. `hold` keeps part PUTs waiting until `release` is called.
 */
export function uploadServer() {
  let ids = 0;
  const assets = new Map<string, { name: string; group: string }>();
  const uploads = new Map<
    string,
    { asset: string; size: number; partSize: number; parts: Map<number, number>; state: string; start: Record<string, unknown> }
  >();
  const calls: string[] = [];
  const bearers: [string, string | null][] = [];
  const fail = new Map<string, number[]>();
  let held: (() => void)[] | null = null;
  const reply = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  const state = (id: string) => {
    const u = uploads.get(id)!;
    const count = Math.max(1, Math.ceil(u.size / u.partSize));
    const missing = Array.from({ length: count }, (_, i) => i + 1).filter((n) => !u.parts.has(n));
    return { upload_id: id, asset_id: u.asset, size: u.size, part_size: u.partSize, part_count: count, missing, state: u.state };
  };

  const fetchStub = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input).split("?")[0];
    const method = init.method ?? "GET";
    const route = `${method} ${url}`;
    calls.push(route);
    bearers.push([route, new Headers(init.headers).get("Authorization")]);
    const failures = fail.get(`${method} ${url.replace(/[0-9a-z-]+-\d+/g, ":id")}`);
    if (failures?.length) {
      const status = failures.shift()!;
      // 0 stands for no answer at all: fetch rejects.
      if (status === 0) throw new TypeError("fetch failed");
      return new Response("{}", { status });
    }
    const body = typeof init.body === "string" ? JSON.parse(init.body) : undefined;
    let m: RegExpMatchArray | null;
    if (route === "POST /api/asset/create") {
      const id = `asset-${++ids}`;
      assets.set(id, { name: body.asset_name, group: body.in_group });
      return reply({ asset_id: id });
    }
    if (route === "GET /api/auth/refresh") return reply({ bearer: "fresh-bearer", expire: Math.floor(Date.now() / 1000) + 3600 });
    if ((m = route.match(/^DELETE \/api\/asset\/(.+)$/)))
      return assets.delete(m[1]) ? reply({ ok: true }) : reply({ error: { code: "not_found", message: "нет" } }, 404);
    if ((m = route.match(/^GET \/api\/asset\/content-size\/(.+)$/))) return reply({ asset_id: m[1], content_size: 1 });
    if (route === "POST /api/ul/start") {
      const id = `upload-${++ids}`;
      uploads.set(id, { asset: body.asset_id, size: body.size, partSize: body.part_size, parts: new Map(), state: "active", start: body });
      return reply(state(id));
    }
    if ((m = route.match(/^GET \/api\/ul\/([^/]+)$/))) return reply(state(m[1]));
    if ((m = route.match(/^POST \/api\/ul\/([^/]+)\/targets$/)))
      return reply(body.parts.map((part: number) => ({ part, url: `http://files/${m![1]}/${part}` })));
    if ((m = route.match(/^PUT http:\/\/files\/([^/]+)\/(\d+)$/))) {
      if (held) await new Promise<void>((resolve) => held!.push(resolve));
      init.signal?.throwIfAborted();
      return new Response(null, { status: 200, headers: { ETag: `"${m[1]}-${m[2]}"` } });
    }
    if ((m = route.match(/^POST \/api\/ul\/([^/]+)\/parts\/(\d+)$/))) {
      uploads.get(m[1])!.parts.set(Number(m[2]), 1);
      return reply({ part: Number(m[2]), size: 1, etag: body.etag });
    }
    if ((m = route.match(/^POST \/api\/ul\/([^/]+)\/complete$/))) {
      const u = uploads.get(m[1])!;
      u.state = "completed";
      return reply({ asset_id: u.asset, content_size: u.size });
    }
    if ((m = route.match(/^DELETE \/api\/ul\/([^/]+)$/))) {
      const u = uploads.get(m[1])!;
      u.state = "aborted";
      return reply({ upload_id: m[1], state: "aborted", asset_deleted: false });
    }
    throw new Error(`unexpected ${route}`);
  });
  vi.stubGlobal("fetch", fetchStub);

  return {
    assets,
    uploads,
    calls,
    /** Each call with the Authorization header it carried. */
    bearers,
    /** Answers the next calls of `method path` (ids written as :id) with these statuses (0: no answer). */
    failWith: (route: string, statuses: number[]) => fail.set(route, statuses),
    hold: () => (held = []),
    release: () => {
      const waiting = held ?? [];
      held = null;
      for (const go of waiting) go();
    },
    state,
  };
}
