import { describe, expect, it } from "vitest";
import * as assets from "../../shared/assets/contract";
import * as auth from "../../shared/auth/contract";
import * as dav from "../../shared/dav/contract";
import * as duplicates from "../../shared/duplicates/contract";
import * as events from "../../shared/events/contract";
import * as fields from "../../shared/fields/contract";
import * as groups from "../../shared/groups/contract";
import * as lists from "../../shared/lists/contract";
import * as review from "../../shared/review/contract";
import * as search from "../../shared/search/contract";
import * as shop from "../../shared/shop/contract";
import * as sl from "../../shared/sl/contract";
import * as sso from "../../shared/sso/contract";
import * as storage from "../../shared/storage/contract";
import * as tags from "../../shared/tags/contract";
import * as tasks from "../../shared/tasks/contract";
import * as taxonomy from "../../shared/taxonomy/contract";
import * as transcripts from "../../shared/transcripts/contract";
import * as udwf from "../../shared/udwf/contract";
import * as uploads from "../../shared/uploads/contract";
import * as users from "../../shared/users/contract";
import * as wopi from "../../shared/wopi/contract";
import { admin } from "./fixtures";
import { api } from "./helpers";
import { concrete, operations } from "./openapi-walk";

/**
 * "No sign-in needed" is declared once, `security: []` on a route's definition; the bearer check reads
 * it from there. Every such route is served without a bearer, every other one answers 401.
 */

const signInRequired = "Требуется вход в систему";

describe("routes without sign-in", () => {
  it("are exactly the ones whose definition says security: []", async () => {
    const { ops } = await operations(await admin());
    const open = ops.filter((o) => o.open).map((o) => `${o.method} ${o.path}`);
    // The whole open set, by kind: adding one is a decision this list records. Sign-in and its SSO, version,
    // health; the transcoder's callbacks (a per-task token); share links and signed URLs; the WOPI file routes (an
    // access token in the query); the two incoming webhooks (signed); a review link's guest API (the link and a
    // signed per-link session) and the live room's upgrade (a one-minute ticket).
    expect(open.sort()).toEqual(
      [
        "GET /api/auth/logout",
        "GET /api/auth/refresh",
        "GET /api/auth/sso-cb/{provider}",
        "GET /api/auth/sso-providers",
        "GET /api/auth/sso/{provider}",
        "POST /api/auth/exchange-token",
        "POST /api/auth/login",
        "GET /api/health",
        "GET /api/version",
        "POST /api/task-cb/{id}/audio/transcriptions",
        "POST /api/task-cb/{id}/fail",
        "POST /api/task-cb/{id}/out/{name}/complete",
        "POST /api/task-cb/{id}/out/{name}/multipart",
        "POST /api/task-cb/{id}/progress",
        "POST /api/task-cb/{id}/result",
        "PUT /api/task-cb/{id}/out/{name}",
        "PUT /api/task-cb/{id}/out/{name}/part/{part}",
        "GET /api/media/{id}",
        "GET /api/sl/info/{id}",
        "POST /api/sl/info/{id}",
        "GET /api/sl/{id}/download/{which}",
        "GET /api/sl/{id}/play",
        "GET /api/sl/{id}/preview",
        "GET /api/transcripts/{asset_id}/track",
        "GET /api/ul/ping",
        "PUT /api/ul/{id}/part/{n}",
        "GET /api/wopi/files/{id}",
        "GET /api/wopi/files/{id}/contents",
        "POST /api/wopi/files/{id}",
        "POST /api/wopi/files/{id}/contents",
        "POST /api/shop/webhook/stripe",
        "POST /api/udwf/hook/{id}/{secret}",
        "GET /api/review/guest/{link_id}",
        "GET /api/review/guest/{link_id}/comments",
        "POST /api/review/guest/{link_id}/approval",
        "POST /api/review/guest/{link_id}/code",
        "POST /api/review/guest/{link_id}/comments",
        "POST /api/review/guest/{link_id}/confirm",
        "POST /api/review/guest/{link_id}/live-ticket",
        "POST /api/review/guest/{link_id}/session",
        "PATCH /api/review/guest/{link_id}/comments/{id}",
        "DELETE /api/review/guest/{link_id}/comments/{id}",
        "GET /api/review/live/{asset_id}",
      ].sort(),
    );
    for (const op of ops) {
      const body = op.method === "GET" || op.method === "HEAD" ? undefined : "{}";
      const headers = body ? { "Content-Type": "application/json" } : undefined;
      const res = await api(concrete(op.path), { method: op.method, body, headers, redirect: "manual" });
      const text = await res.text();
      const what = `${op.method} ${op.path} without a bearer`;
      if (op.open) expect(text, what).not.toContain(signInRequired);
      else {
        expect(res.status, what).toBe(401);
        expect(JSON.parse(text).error.message, what).toBe(signInRequired);
      }
    }
  }, 120_000);

  it("the browser reads the same definitions: its routes are open exactly where the document says so", async () => {
    const { ops } = await operations(await admin());
    const byOp = new Map(ops.map((o) => [`${o.method} ${o.path}`, o.open]));
    const contracts = [
      auth,
      sso,
      dav,
      groups,
      users,
      storage,
      tags,
      taxonomy,
      fields,
      lists,
      events,
      search,
      duplicates,
      tasks,
      shop,
      udwf,
      review,
      assets,
      transcripts,
      sl,
      uploads,
      wopi,
    ];
    const routes = contracts.flatMap((c) => Object.values(c) as { method: string; path: string; security?: unknown[] }[]);
    expect(routes.length).toBeGreaterThan(240);
    for (const route of routes) {
      const key = `${route.method.toUpperCase()} /api${route.path}`;
      expect(byOp.get(key), key).toBe(Array.isArray(route.security) && route.security.length === 0);
    }
  });
});
