import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../fixtures";
import { personas, type PersonaName, type RouteCase, type World } from "./types";
import { buildWorld } from "./world";

/**
 * Calls each route as every persona: each must answer the declared status, and no answer may carry a
 * name or id the persona cannot read. The cases are spread over test files by resource, each building its own world.
 */
export function declareMatrix(cases: RouteCase[]) {
  let w: World;
  beforeAll(async () => {
    w = await buildWorld();
  }, 60_000);

  /** Names and ids each persona may not read: R, C and P for all but admins; S too for those without read on it. */
  function secretsOf(as: PersonaName, extra: string[]) {
    if (as === "admin") return [];
    const hidden = [w.root, w.priv];
    const noShared = as === "anonymous" || as === "disabled" || as === "none" || as === "chrooted";
    if (as !== "chrooted") hidden.push(w.chrootArea);
    if (noShared) hidden.push(w.shared);
    return [...hidden.flatMap((g) => [g.name, g.id]), ...(noShared ? extra : [])];
  }

  const bearerOf = (as: PersonaName) => (as === "anonymous" ? undefined : (w.users[as].bearer ?? undefined));

  describe.each(cases)("$route", (rc) => {
    it("answers each persona as declared and leaks nothing", async () => {
      const wrong: string[] = [];
      for (const as of personas) {
        const req = await rc.request(w, as);
        const res = await call(req.path, {
          method: req.method ?? "GET",
          json: req.json,
          body: req.body,
          headers: req.headers,
          bearer: bearerOf(as),
        });
        if (res.status !== rc.expect[as]) wrong.push(`${as}: ${res.status} (expected ${rc.expect[as]}) ${res.text.slice(0, 160)}`);
        const leaked = secretsOf(as, req.secrets ?? []).filter((s) => res.text.includes(s));
        if (leaked.length) wrong.push(`${as}: leaked ${leaked.join(", ")}`);
      }
      expect(wrong).toEqual([]);
    }, 30_000);
  });
}
