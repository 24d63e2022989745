import type { MetaFunction } from "@remix-run/react";
import { ru } from "../i18n/ru";

/** `export const meta = pageMeta(ru.pages.jobs)` gives the tab title "Задачи — Медиа-архив". */
export function pageMeta(title: string): MetaFunction {
  return () => [{ title: `${title} — ${ru.app.name}` }];
}
