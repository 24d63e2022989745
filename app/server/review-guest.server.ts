import type { AppLoadContext } from "@remix-run/cloudflare";
import { nowSeconds } from "../../db/schema/columns";
import { getDb } from "../../functions/lib/db";
import type { Env } from "../../functions/lib/env";
import { ApiError } from "../../functions/lib/errors";
import {
  confirmCode,
  guestComment,
  guestComments,
  guestDecide,
  guestInfo,
  mailCode,
  nameGuest,
  openGuest,
} from "../../functions/review/guest";
import { codeBody, guestCommentBody, guestDecisionBody, nameBody } from "../../shared/review/guest-schemas";
import type { CommentsOut } from "../../shared/review/schemas";
import { LinkUnavailable, type UnavailableReason } from "../../functions/sl/public";
import { countView, unlockLink } from "../../functions/sl/recipient";
import type { GuestInfo, GuestLiveTicket } from "../../shared/review/guest-schemas";
import { approvalMessage, commentMessage, guestLiveTicket, pushLive } from "../../functions/review/live";

/**
 * The review page's server side (/review/{id}, docs/decisions/061-review-and-approval.md "External reviewers"): the
 * route's loader and action call the guest service directly with the Worker's bindings, no HTTP hop. Every answer is
 * `private, no-store`: the page belongs to one guest's session and is never stored at the edge.
 */

export type GuestView =
  | { state: "unavailable"; reason: UnavailableReason }
  | { state: "locked"; error?: "wrong" | "throttled" }
  | { state: "open"; info: GuestInfo; comments: CommentsOut; ticket: GuestLiveTicket | null };

export interface GuestAnswer {
  view: GuestView;
  status: number;
  headers: Record<string, string>;
}

/** What an action answers besides a redirect: the error to show by the form that was sent. */
export interface GuestActed {
  intent: string;
  error?: string;
  sentTo?: string;
}

// Same-origin referrers: the page's address is the link's key, and Remix refuses a form POST with `Origin: null`.
export const guestHeaders = {
  "Cache-Control": "private, no-store",
  "Referrer-Policy": "same-origin",
  "X-Robots-Tag": "noindex",
};

const cf = (context: AppLoadContext) => context.cloudflare as { env: Env; ctx: ExecutionContext };

export async function loadGuestPage(context: AppLoadContext, id: string, request: Request): Promise<GuestAnswer> {
  const { env, ctx } = cf(context);
  const db = getDb(env);
  try {
    const g = await openGuest(db, env, id, request.headers.get("Cookie"), nowSeconds());
    if (!g.open.unlocked) return { view: { state: "locked" }, status: 200, headers: guestHeaders };
    ctx.waitUntil(countView(db, g.link.linkId, env));
    const [info, comments] = [await guestInfo(db, g), await guestComments(db, g)];
    // The page joins the live room with this first ticket (app/components/viewer/review-live.ts); none, it asks later.
    const ticket = await guestLiveTicket(env, g).catch((err: unknown) => {
      if (err instanceof ApiError) return null;
      throw err;
    });
    return { view: { state: "open", info, comments, ticket }, status: 200, headers: guestHeaders };
  } catch (err) {
    if (!(err instanceof LinkUnavailable)) throw err;
    return { view: { state: "unavailable", reason: err.reason }, status: err.code === "gone" ? 410 : 404, headers: guestHeaders };
  }
}

const text = (form: FormData, key: string) => {
  const v = form.get(key);
  return typeof v === "string" ? v : undefined;
};

/** The first problem of a refused call, as the guest should read it. */
const messageOf = (err: unknown) => {
  if (!(err instanceof ApiError)) throw err;
  const d = err.details?.[0];
  return d ? `${err.message.startsWith("Неверные") ? "" : `${err.message}: `}${d.message}` : err.message;
};

/**
 * The page's forms: the password, the name, the e-mail code, a comment or reply, a decision. A change answers with
 * a redirect to the page (and the cookie it set), so a reload never sends it again; a refusal with its message.
 */
export async function actOnGuestPage(
  context: AppLoadContext,
  id: string,
  request: Request,
): Promise<{ redirect?: true; cookie?: string; acted?: GuestActed; status: number }> {
  const { env, ctx } = cf(context);
  const db = getDb(env);
  const form = await request.formData();
  const intent = text(form, "intent") ?? "";
  const secure = new URL(request.url).protocol === "https:";
  const ip = request.headers.get("CF-Connecting-IP") ?? "local";
  const now = nowSeconds();
  try {
    if (intent === "password") {
      const { cookie } = await unlockLink(db, env, id, (text(form, "password") ?? "").slice(0, 256), ip, secure, now);
      return { redirect: true, cookie: cookie ?? undefined, status: 303 };
    }
    const g = await openGuest(db, env, id, request.headers.get("Cookie"), now);
    if (intent === "name") {
      const { name } = nameBody.parse({ name: text(form, "name") ?? "" });
      return { redirect: true, cookie: await nameGuest(env, g, name, secure, now), status: 303 };
    }
    if (intent === "code") return { acted: { intent, sentTo: (await mailCode(db, env, g, now)).sent_to }, status: 200 };
    if (intent === "confirm") {
      const { code } = codeBody.parse({ code: text(form, "code") ?? "" });
      return { redirect: true, cookie: await confirmCode(db, env, g, code, ip, secure, now), status: 303 };
    }
    if (intent === "comment") {
      const at = text(form, "at");
      const parent = text(form, "parent_id");
      const page = text(form, "page");
      const body = guestCommentBody.parse({
        body: text(form, "body") ?? "",
        ...(at ? { at: JSON.parse(at) } : {}),
        // A PDF's page from its field (a form sends text; something not a number is refused as one).
        ...(page ? { page: Number(page) } : {}),
        ...(parent ? { parent_id: parent } : {}),
      });
      const created = await guestComment(db, g, body);
      // As the guest API does: the team's viewers and the other guests see it come (live room).
      ctx.waitUntil(pushLive(env, commentMessage(db, "comment.created", created.comment_id)));
      return { redirect: true, status: 303 };
    }
    if (intent === "decide") {
      await guestDecide(db, g, guestDecisionBody.parse({ status: text(form, "status") }));
      ctx.waitUntil(pushLive(env, approvalMessage(db, g.assetId, g.version)));
      return { redirect: true, status: 303 };
    }
    return { acted: { intent, error: "?" }, status: 400 };
  } catch (err) {
    if (err instanceof LinkUnavailable) return { redirect: true, status: 303 };
    if (err && typeof err === "object" && "issues" in err) {
      const issues = (err as { issues: { message: string }[] }).issues;
      return { acted: { intent, error: issues[0]?.message ?? "?" }, status: 400 };
    }
    if (err instanceof SyntaxError) return { acted: { intent, error: "?" }, status: 400 };
    if (intent === "password" && err instanceof ApiError)
      return {
        acted: { intent, error: err.code === "rate_limited" ? "throttled" : "wrong" },
        status: err.code === "rate_limited" ? 429 : 403,
      };
    return { acted: { intent, error: messageOf(err) }, status: err instanceof ApiError ? 400 : 500 };
  }
}
