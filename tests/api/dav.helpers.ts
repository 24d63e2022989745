import { api } from "./helpers";

/** WebDAV calls for the API tests: Basic (login + password) or a bearer, any method, raw body. */
export interface DavCall {
  method: string;
  basic?: { login: string; password: string };
  bearer?: string;
  headers?: Record<string, string>;
  body?: BodyInit;
  ip?: string;
}

export const davPath = (...segs: string[]) => `/dav/${segs.map(encodeURIComponent).join("/")}`;

export function dav(path: string, init: DavCall) {
  const headers = new Headers(init.headers);
  if (init.basic)
    headers.set(
      "Authorization",
      `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${init.basic.login}:${init.basic.password}`)))}`,
    );
  return api(path, { method: init.method, bearer: init.bearer, headers, body: init.body, ip: init.ip });
}

/** The hrefs a PROPFIND answer lists, decoded. */
export const hrefsOf = (xml: string) => [...xml.matchAll(/<D:href>([^<]*)<\/D:href>/g)].map((m) => decodeURIComponent(m[1]));
