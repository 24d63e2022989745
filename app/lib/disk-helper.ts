import * as auth from "../../shared/auth/contract";
import * as dav from "../../shared/dav/contract";
import { call } from "./api";

/**
 * The disk helper on the user's machine (helper/, `npx mam-helper`): GET /status, POST /token, POST /mount.
 * Answers are JSON; a refusal or a failed mount is a 4xx/5xx with {error: "<Russian text>"} (shown as is in a toast).
 */
export const HELPER_URL = "http://127.0.0.1:18981";

export interface HelperStatus {
  version: string;
  backend: string | null;
  token: boolean;
  mounts: { group_id: string; name: string; path: string }[];
}

async function helperCall<T>(path: string, json?: unknown, timeoutMs = 20_000): Promise<T> {
  const res = await fetch(`${HELPER_URL}${path}`, {
    method: json === undefined ? "GET" : "POST",
    headers: json === undefined ? undefined : { "Content-Type": "application/json" },
    body: json === undefined ? undefined : JSON.stringify(json),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return (await res.json()) as T;
}

/** The helper's status, or null when nothing answers on its port (not installed or not started). */
export const helperStatus = () => helperCall<HelperStatus>("/status", undefined, 1500).catch(() => null);

export const listAppPasswords = () => call(dav.listAppPasswords);
export const createAppPassword = (name: string) => call(dav.createAppPassword, { body: { name } });
export const revokeAppPassword = (id: string) => call(dav.revokeAppPassword, { params: { id } });

/**
 * Mounts a group: gives the helper an app password first when it has none, then asks it to mount the group's
 * WebDAV address. Resolves to the local path; throws the helper's (Russian) error text.
 */
export async function mountGroup(groupId: string, name: string, tokenName: string): Promise<string> {
  const status = await helperStatus();
  if (!status) throw new HelperMissing();
  if (!status.token) {
    const [{ login }, secret] = await Promise.all([call(auth.getWhoami), createAppPassword(tokenName)]);
    await helperCall("/token", { token: secret.password, login, server: window.location.origin });
  }
  const { path: url } = await call(dav.davPath, { params: { id: groupId } });
  const answer = await helperCall<{ path?: string; error?: string }>("/mount", { group_id: groupId, name, url });
  if (!answer.path) throw new Error(answer.error ?? "");
  return answer.path;
}

/** Nothing answers on the helper's port. */
export class HelperMissing extends Error {}
