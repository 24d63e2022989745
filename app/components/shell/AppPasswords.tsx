import { Button, Code, Group, Modal, Stack, Table, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import { type AppPassword, createAppPasswordBody } from "../../../shared/dav/schemas";
import { ru } from "../../i18n/ru";
import { runAction, runCriticalAction } from "../../lib/actions";
import { createAppPassword, listAppPasswords, revokeAppPassword } from "../../lib/disk-helper";
import { applyServerErrors } from "../../lib/form-errors";
import { formatDateTime } from "../../lib/format";
import { showInfo } from "../../lib/notify";
import { DataTable } from "../ui/DataTable";
import { DangerButton } from "../ui/RowActions";

/**
 * The caller's app passwords (WebDAV clients, the disk helper; the only way into WebDAV for single-sign-on
 * users). The list is loaded when the dialog opens (by the button's handler) and after each change.
 */
export function AppPasswordsButton() {
  const [list, setList] = useState<AppPassword[] | null>(null);
  const [fresh, setFresh] = useState<string | null>(null);
  const reload = async () => setList((await runAction(listAppPasswords)) ?? []);
  const open = () => {
    setFresh(null);
    void reload();
  };
  const form = useForm({ initialValues: { name: "" }, validate: zod4Resolver(createAppPasswordBody) });
  const create = form.onSubmit(async ({ name }) => {
    try {
      setFresh((await createAppPassword(name)).password);
    } catch (err) {
      // A name the server refuses shows under the field; anything else in the toast.
      applyServerErrors(form, err);
      return;
    }
    form.reset();
    await reload();
  });
  const revoke = async (id: string) => {
    await runCriticalAction(() => revokeAppPassword(id)).catch(() => null);
    showInfo(ru.disk.revoked);
    await reload();
  };
  return (
    <>
      <Button variant="subtle" color="gray" size="sm" onClick={open}>
        {ru.disk.appPasswords}
      </Button>
      <Modal opened={list !== null} onClose={() => setList(null)} title={ru.disk.appPasswords} size="lg" centered>
        <Stack>
          <Text size="sm">{ru.disk.appPasswordsText(typeof window === "undefined" ? "" : window.location.origin)}</Text>
          {fresh && (
            <Stack gap={4}>
              <Text size="sm" fw={600}>
                {ru.disk.shownOnce}
              </Text>
              <Code block data-testid="new-app-password">
                {fresh}
              </Code>
            </Stack>
          )}
          <form onSubmit={create}>
            <Group align="flex-end">
              <TextInput label={ru.disk.passwordName} style={{ flex: 1 }} {...form.getInputProps("name")} />
              <Button type="submit">{ru.disk.create}</Button>
            </Group>
          </form>
          {list?.length === 0 && <Text c="dimmed">{ru.disk.none}</Text>}
          {!!list?.length && (
            <DataTable aria-label={ru.disk.appPasswords} head={[ru.disk.passwordName, ru.disk.created, ru.disk.lastUsed, ""]} rows={list}>
              {(p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>{p.name}</Table.Td>
                  <Table.Td>{formatDateTime(p.ctime)}</Table.Td>
                  <Table.Td>{p.last_used ? formatDateTime(p.last_used) : ru.disk.never}</Table.Td>
                  <Table.Td>
                    <DangerButton onClick={() => revoke(p.id)}>{ru.disk.revoke}</DangerButton>
                  </Table.Td>
                </Table.Tr>
              )}
            </DataTable>
          )}
        </Stack>
      </Modal>
    </>
  );
}
