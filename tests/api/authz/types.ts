/**
 * The authorization matrix's vocabulary. Each resource declares, for every route it registers, how
 * to call it and what each persona must get (tests/api/authz/<resource>.ts, listed in index.ts).
 * tests/api/authz-matrix.test.ts walks the app's route table: an undeclared route fails it.
 */

export const personas = ["anonymous", "disabled", "none", "reader", "editor", "chrooted", "robot", "admin"] as const;
export type PersonaName = (typeof personas)[number];
export type Expectation = Record<PersonaName, number>;

export interface WorldGroup {
  id: string;
  name: string;
}

/** The fixed world every route is called in (built once by world.ts). */
export interface World {
  /** A word every world group name contains, for searches that could leak them. */
  tag: string;
  /** Top-level group R; S (shared) and C (chroot area) below it; P a private top-level group. */
  root: WorldGroup;
  shared: WorldGroup;
  chrootArea: WorldGroup;
  priv: WorldGroup;
  users: Record<Exclude<PersonaName, "anonymous">, { id: string; bearer: string | null }>;
  /** A fresh group under S, so a mutating call never disturbs another persona's. */
  freshInShared(): Promise<WorldGroup>;
  /** A fresh soft-deleted group under S (restore, purge). */
  deletedInShared(): Promise<WorldGroup>;
  adminBearer: string;
}

export interface Req {
  method?: string;
  path: string;
  json?: unknown;
  /** A raw body and headers (WebDAV calls). */
  body?: string;
  headers?: Record<string, string>;
  /** Extra strings (names of fresh objects) that callers without read must never see. */
  secrets?: string[];
}

export interface RouteCase {
  /** "METHOD /api/path/:param", exactly as the app registers it (WebDAV: "METHOD /dav/*", functions/dav). */
  route: string;
  request: (w: World, as: PersonaName) => Req | Promise<Req>;
  expect: Expectation;
}

const each = (value: number): Expectation => Object.fromEntries(personas.map((p) => [p, value])) as Expectation;

/** Open routes: the same answer for everyone. */
export const open = (status = 200) => each(status);

/** Any signed-in, enabled caller. */
export const signedIn = (status = 200): Expectation => ({ ...each(status), anonymous: 401, disabled: 401 });

/** Admins only; everyone else signed in gets 403. */
export const adminOnly = (status = 200): Expectation => ({ ...each(403), anonymous: 401, disabled: 401, admin: status });

/**
 * A route on an object `owner` owns (an upload, an order, a workflow: docs/decisions/064-owned-objects-in-the-engine.md):
 * its owner and admins get `status`; every other signed-in caller gets 404, as for a missing object.
 */
export const ownedBy = (owner: Exclude<PersonaName, "anonymous" | "disabled">, status = 200): Expectation => ({
  ...each(404),
  anonymous: 401,
  disabled: 401,
  [owner]: status,
  admin: status,
});

/**
 * A route on objects in S: callers who cannot read S (none, chrooted) get 404 like a missing object;
 * readers (reader, robot), editors (read+update) and admins get the given statuses.
 */
export const onShared = (reader: number, editor: number, admin = 200): Expectation => ({
  anonymous: 401,
  disabled: 401,
  none: 404,
  chrooted: 404,
  reader,
  robot: reader,
  editor,
  admin,
});
