import { beforeAll, describe, expect, it } from "vitest";
import { api as app } from "../../functions/index";
import { call } from "./fixtures";
import { routeCases } from "./authz";
import { personas, type PersonaName, type World } from "./authz/types";
import { buildWorld } from "./authz/world";

/**
 * The authorization matrix: every route the app registers, called as each persona, must answer the
 * declared status, and no answer may carry a name or id the persona cannot read.
 */

const registered = [...new Set(app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`))].sort();
const declared = routeCases.map((c) => c.route);

describe("route coverage", () => {
  it("every registered route declares its expectations", () => {
    expect(registered.filter((r) => !declared.includes(r))).toEqual([]);
  });

  it("declares no route the app does not register, and none twice", () => {
    expect(declared.filter((r) => !registered.includes(r))).toEqual([]);
    expect(declared.filter((r, i) => declared.indexOf(r) !== i)).toEqual([]);
  });
});

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

describe.each(routeCases)("$route", (rc) => {
  it("answers each persona as declared and leaks nothing", async () => {
    const wrong: string[] = [];
    for (const as of personas) {
      const req = await rc.request(w, as);
      const res = await call(req.path, { method: req.method ?? "GET", json: req.json, bearer: bearerOf(as) });
      if (res.status !== rc.expect[as]) wrong.push(`${as}: ${res.status} (expected ${rc.expect[as]}) ${res.text.slice(0, 160)}`);
      const leaked = secretsOf(as, req.secrets ?? []).filter((s) => res.text.includes(s));
      if (leaked.length) wrong.push(`${as}: leaked ${leaked.join(", ")}`);
    }
    expect(wrong).toEqual([]);
  });
});
