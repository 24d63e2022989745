import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useNavigate } from "@remix-run/react";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { type AdminUser, deleteUser } from "../../lib/admin-api";
import { runCriticalAction } from "../../lib/actions";
import { showInfo } from "../../lib/notify";
import { findUsers, type PickOption, RemotePicker } from "./pickers";

const t = ru.adminExtra.deleteUser;

/**
 * «Удалить пользователя» with the question the delete needs answered: who takes over the user's files,
 * groups and automations (DELETE /api/user/{id}?heir=). Left empty, the admin deleting does (decision 056).
 */
export function DeleteUserButton({ user }: { user: AdminUser }) {
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const [heir, setHeir] = useState<PickOption | null>(null);
  const [busy, setBusy] = useState(false);
  const candidates = async (q: string, signal: AbortSignal) => (await findUsers(q, signal)).filter((o) => o.value !== user.user_id);

  async function confirm() {
    setBusy(true);
    try {
      await runCriticalAction(() => deleteUser(user.user_id, heir?.value));
      showInfo(t.deleted(user.user_name));
      setOpened(false);
      navigate("/admin/active-users", { replace: true });
    } catch {
      // The toast has said why; the dialog stays for another try.
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Button variant="subtle" color="red" onClick={() => setOpened(true)}>
        {t.button}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t.title} centered>
        <Stack>
          <Text>{t.text(user.user_name)}</Text>
          <RemotePicker label={t.heir} value={heir} onChange={setHeir} search={candidates} testId="heir-picker" />
          <Text size="xs" c="dimmed">
            {t.heirHint}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpened(false)}>
              {t.cancel}
            </Button>
            <Button color="red" loading={busy} onClick={confirm}>
              {t.confirm}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
