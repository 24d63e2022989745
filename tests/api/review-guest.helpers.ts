import { expect } from "vitest";
import { admin, call } from "./fixtures";
import { api } from "./helpers";

/** Review links' guests (docs/decisions/061-review-and-approval.md, "External reviewers"): a browser-like cookie jar. */

export const outside = () => `guest-${crypto.randomUUID().slice(0, 8)}@outside.example`;

/** Asks for review by `reviewers` (the admin by default, who holds acl); answers the body with its links. */
export async function invite(json: Record<string, unknown>, bearer?: string) {
  const r = await call("/api/review/requests", { method: "POST", json, bearer: bearer ?? (await admin()) });
  return r;
}

export const linkIdOf = (url: string) => url.split("/").pop()!;

/** A guest's browser: the link id in the path, and the cookies the answers set (unlock, guest session). */
export class Guest {
  cookies = new Map<string, string>();
  constructor(readonly linkId: string) {}

  static async invited(json: Record<string, unknown>) {
    const r = await invite(json);
    expect(r.status, r.text).toBe(200);
    return new Guest(linkIdOf(r.body.links[0].url));
  }

  get cookie() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async call(path: string, init: { method?: string; json?: unknown; linkId?: string } = {}) {
    const res = await api(path.startsWith("/api") ? path : `/api/review/guest/${init.linkId ?? this.linkId}${path}`, {
      method: init.method ?? "GET",
      json: init.json,
      cookie: this.cookie || undefined,
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair.indexOf("=");
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const text = await res.text();
    let body: any = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    return { status: res.status, body, text, headers: res.headers };
  }

  async named(name: string) {
    const r = await this.call("/session", { method: "POST", json: { name } });
    expect(r.status, r.text).toBe(200);
    return this;
  }

  async comment(json: Record<string, unknown>) {
    const r = await this.call("/comments", { method: "POST", json });
    expect(r.status, r.text).toBe(200);
    return r.body.comment_id as string;
  }
}
