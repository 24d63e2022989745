import { Button } from "@mantine/core";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { updateUser, type AdminUser } from "../../lib/admin-api";
import { runAction } from "../../lib/actions";
import { showInfo } from "../../lib/notify";
import { sessionStore } from "../../lib/session";
import { useStore } from "../../lib/store";

const t = ru.admin.users;

/** Enables or disables a user; disabling ends their sessions on the server. */
export function EnableToggle({ user, onChanged }: { user: AdminUser; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  const me = useStore(sessionStore).user?.id;
  async function toggle() {
    setBusy(true);
    const changed = await runAction(() => updateUser(user.user_id, { enabled: !user.enabled }));
    setBusy(false);
    if (!changed) return;
    showInfo(changed.enabled ? t.enabledDone : t.disabledDone);
    onChanged();
  }
  // The server refuses to disable the caller's own account; no button that can only fail.
  if (user.user_id === me) return null;
  return (
    <Button size="xs" variant="light" color={user.enabled ? "red" : "green"} loading={busy} onClick={toggle}>
      {user.enabled ? t.disable : t.enable}
    </Button>
  );
}
