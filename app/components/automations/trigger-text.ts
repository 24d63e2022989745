import { ru } from "../../i18n/ru";

const t = ru.automations;

/** A trigger in words for the list: its kind, and its group or schedule when it has one. */
export function triggerText(trigger: Record<string, unknown> | null): string {
  if (!trigger) return "—";
  const what = t.triggers[String(trigger.type)] ?? String(trigger.type);
  if (trigger.type === "schedule" && trigger.cron) return `${what}: ${trigger.cron}`;
  if (typeof trigger.group_id === "string") return t.triggerIn(what, `${trigger.group_id.slice(0, 8)}…`);
  return what;
}
