import { Button, Modal, Stack, Table, Text, Title } from "@mantine/core";
import { useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { type SsoLinkRow, unlinkSso } from "../../lib/admin-api";
import { runCriticalAction } from "../../lib/actions";
import { formatDateTime } from "../../lib/format";
import { showInfo } from "../../lib/notify";
import { DialogActions } from "../ui/DialogActions";

const t = ru.sso.links;

/**
 * The single sign-on providers a user is linked to (loaded by the user's screen), with unlinking
 * (DELETE /api/user/{id}/sso-links/{provider}) behind a confirmation.
 */
export function SsoLinks({ userId, links }: { userId: string; links: SsoLinkRow[] }) {
  const { revalidate } = useRevalidator();
  const [confirm, setConfirm] = useState<SsoLinkRow | null>(null);
  const [busy, setBusy] = useState(false);

  const unlink = async (link: SsoLinkRow) => {
    setBusy(true);
    try {
      await runCriticalAction(() => unlinkSso(userId, link.provider));
      showInfo(t.unlinked(link.title));
      setConfirm(null);
      revalidate();
    } catch {
      // Already reported by a toast.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        {t.title}
      </Title>
      {links.length === 0 ? (
        <Text c="dimmed">{t.empty}</Text>
      ) : (
        <Table striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t.provider}</Table.Th>
              <Table.Th>{t.email}</Table.Th>
              <Table.Th>{t.subject}</Table.Th>
              <Table.Th>{t.lastLogin}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {links.map((link) => (
              <Table.Tr key={link.provider}>
                <Table.Td>{link.title}</Table.Td>
                <Table.Td>{link.email ?? "—"}</Table.Td>
                <Table.Td>
                  <Text size="xs" ff="monospace">
                    {link.subject}
                  </Text>
                </Table.Td>
                <Table.Td>{formatDateTime(link.last_login)}</Table.Td>
                <Table.Td>
                  <Button size="xs" color="red" variant="light" onClick={() => setConfirm(link)}>
                    {t.unlink}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Modal opened={confirm !== null} onClose={() => setConfirm(null)} title={t.unlinkTitle} centered>
        {confirm && (
          <Stack>
            <Text>{t.unlinkText(confirm.title)}</Text>
            <DialogActions
              cancelLabel={t.cancel}
              onCancel={() => setConfirm(null)}
              label={t.unlink}
              color="red"
              busy={busy}
              onAction={() => void unlink(confirm)}
            />
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
