import * as wopi from "../../../shared/wopi/contract";
import type { CheckFileInfo } from "../../../shared/wopi/schemas";
import { call } from "../../lib/api";
import { ru } from "../../i18n/ru";

/**
 * The built-in editor's WOPI client: the same host endpoints an office server calls (CheckFileInfo, GetFile,
 * LOCK, REFRESH_LOCK, UNLOCK, PutFile), by the access token, never the bearer. Plain fetch on purpose: a 401
 * here is about the access token, and must not sign the user out as the app's client does for the bearer.
 */

export const wopiToken = (assetId: string) => call(wopi.wopiToken, { params: { id: assetId } });

export type LockResult = { ok: true } | { ok: false; holder: string | null };

export class WopiFile {
  private readonly path: string;

  constructor(
    wopiSrc: string,
    private readonly token: string,
  ) {
    // The page talks to its own origin (PUBLIC_URL may name another route to the same Worker).
    this.path = new URL(wopiSrc, window.location.origin).pathname;
  }

  private url(suffix = "") {
    return `${this.path}${suffix}?access_token=${encodeURIComponent(this.token)}`;
  }

  private async call(suffix: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(this.url(suffix), { credentials: "omit", ...init });
    if (!res.ok && res.status !== 409) {
      const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
      throw new Error(body?.error?.message ?? ru.errors.http(res.status, res.statusText));
    }
    return res;
  }

  private op(op: string, headers: Record<string, string> = {}, init: RequestInit = {}) {
    return this.call("", { method: "POST", headers: { "X-WOPI-Override": op, ...headers }, ...init });
  }

  async info(): Promise<CheckFileInfo> {
    return (await this.call("")).json();
  }

  async text(): Promise<string> {
    return (await this.call("/contents")).text();
  }

  async lock(lockId: string): Promise<LockResult> {
    const res = await this.op("LOCK", { "X-WOPI-Lock": lockId });
    if (res.ok) return { ok: true };
    return { ok: false, holder: (await this.info()).LockedByName };
  }

  async refresh(lockId: string): Promise<boolean> {
    return (await this.op("REFRESH_LOCK", { "X-WOPI-Lock": lockId })).ok;
  }

  /** Releases the lock; `keepalive` lets it finish while the page is being closed. */
  async unlock(lockId: string, keepalive = false): Promise<void> {
    await this.op("UNLOCK", { "X-WOPI-Lock": lockId }, { keepalive }).catch(() => undefined);
  }

  /** PutFile under the lock; the new X-WOPI-ItemVersion, or null when the lock was lost. */
  async put(lockId: string, text: string): Promise<string | null> {
    const res = await this.call("/contents", {
      method: "POST",
      headers: { "X-WOPI-Override": "PUT", "X-WOPI-Lock": lockId, "Content-Type": "application/octet-stream" },
      body: new TextEncoder().encode(text),
    });
    return res.ok ? res.headers.get("X-WOPI-ItemVersion") : null;
  }
}
