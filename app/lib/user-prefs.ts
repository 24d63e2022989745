import type { z } from "zod";
import * as users from "../../shared/users/contract";
import type { bookmark } from "../../shared/users/schemas";
import { runAction } from "./actions";
import { call } from "./api";
import { sessionStore } from "./session";
import { createStore } from "./store";

/**
 * The signed-in user's interface settings and bookmarked groups, kept on the server (GET|PATCH /api/user/ui_settings,
 * GET|PATCH /api/user/bookmarks) so they follow the user across browsers and devices (docs/decisions/042). Loaded
 * once per signed-in user by the /mam screens' loaders; changes are written back as they happen.
 */

export type Bookmark = z.infer<typeof bookmark>;
export type ContentsView = "list" | "grid";
export interface UiSettings {
  /** The group contents as a list or as tiles. */
  mam_view?: ContentsView;
  /** The contents' sort when the address names none. */
  mam_sort?: { key: "name" | "date" | "size"; dir: "asc" | "desc" };
  /** The tree's open groups, reopened on the next visit. */
  tree_open?: string[];
}

export interface UserPrefs {
  /** Whose prefs these are; null: not loaded. */
  userId: string | null;
  settings: UiSettings;
  bookmarks: Bookmark[];
}

export const prefsStore = createStore<UserPrefs>({ userId: null, settings: {}, bookmarks: [] });

/** The most open groups remembered: a deep tree keeps its top open, not every branch ever visited. */
const MAX_OPEN = 50;

let loading: { userId: string; done: Promise<UserPrefs> } | null = null;

/** Loads the prefs of the signed-in user unless they are loaded already; a failed load leaves the defaults. */
export function ensurePrefs(): Promise<UserPrefs> {
  const userId = sessionStore.get().user?.id ?? null;
  const current = prefsStore.get();
  if (!userId || current.userId === userId) return Promise.resolve(current);
  if (loading?.userId !== userId) {
    const done = Promise.all([
      // The server keeps any keys; these are the ones this interface writes.
      call(users.getUiSettings).then(
        (s): UiSettings => s,
        () => ({}),
      ),
      call(users.getBookmarks).catch((): Bookmark[] => []),
    ]).then(([settings, bookmarks]) => {
      const prefs = { userId, settings, bookmarks };
      if (sessionStore.get().user?.id === userId) prefsStore.set(prefs);
      return prefs;
    });
    loading = { userId, done };
  }
  return loading.done;
}

/** A change of settings: a key set to null is removed (as the server's PATCH does). */
export type SettingsPatch = { [K in keyof UiSettings]?: UiSettings[K] | null };

/** Changes settings here at once and on the server (a failure is logged, not toasted: it is only a preference). */
export function saveSettings(patch: SettingsPatch) {
  const prefs = prefsStore.get();
  const settings: Record<string, unknown> = { ...prefs.settings, ...patch };
  for (const [key, value] of Object.entries(settings)) if (value === null) delete settings[key];
  prefsStore.set({ ...prefs, settings: settings as UiSettings });
  if (!prefs.userId) return;
  // One PATCH at a time: the server merges each into what it has, so two at once could lose one of them.
  saving = saving.then(() => runAction(() => call(users.patchUiSettings, { body: patch }), { silent: true }));
}

let saving: Promise<unknown> = Promise.resolve();

let openTimer: ReturnType<typeof setTimeout> | undefined;

/** The tree's open groups, written a moment after the last change (expanding a path opens several at once). */
export function rememberOpen(open: string[]) {
  clearTimeout(openTimer);
  openTimer = setTimeout(() => saveSettings({ tree_open: open.slice(0, MAX_OPEN) }), 1000);
}

/** Adds or removes a bookmark (the server keeps the order and answers with the list it can show). */
export async function toggleBookmark(groupId: string): Promise<boolean> {
  const ids = prefsStore.get().bookmarks.map((b) => b.group_id);
  const next = ids.includes(groupId) ? ids.filter((id) => id !== groupId) : [...ids, groupId];
  const bookmarks = await runAction(() => call(users.setBookmarks, { body: next }));
  if (!bookmarks) return false;
  prefsStore.set({ ...prefsStore.get(), bookmarks });
  return true;
}
