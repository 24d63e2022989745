import { notifications } from "@mantine/notifications";
import { ToastMessage } from "../components/ToastMessage";
import { ru } from "../i18n/ru";
import { ApiError } from "./api";

/** Spec 2/9: toasts last 5 s and are 400 px wide (the <Notifications> container in root.tsx). */
export const TOAST_AUTO_CLOSE_MS = 5000;
export const TOAST_WIDTH_PX = 400;

/** What the error toast says: the server's message, "HTTP {code}: {message}", or the generic fallback. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message || ru.errors.unknown;
  if (typeof error === "string" && error) return error;
  if (error instanceof Error && error.message) return error.message;
  return ru.errors.unknown;
}

export function showError(error: unknown): void {
  const text = errorMessage(error);
  notifications.show({
    title: ru.errors.title,
    message: <ToastMessage text={text} />,
    color: "red",
    closeButtonProps: { "aria-label": ru.toast.close },
  });
}

export function showInfo(text: string, title?: string): void {
  notifications.show({
    title,
    message: <ToastMessage text={text} />,
    closeButtonProps: { "aria-label": ru.toast.close },
  });
}
