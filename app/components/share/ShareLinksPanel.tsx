import { ActionIcon, Badge, Button, CopyButton, Group, Paper, Stack, Table, Text, Title, Tooltip } from "@mantine/core";
import { useCallback, useEffect, useState } from "react";
import type { LinkOut } from "../../../functions/sl/schemas";
import { ru } from "../../i18n/ru";
import { api } from "../../lib/api";
import { formatDateTime } from "../../lib/format";
import { showError, showInfo } from "../../lib/notify";
import { IconCheck, IconCopy } from "../icons";
import { CreateLinkForm } from "./CreateLinkForm";

const t = ru.share.panel;
const urlOf = (id: string) => `${window.location.origin}/sl/${id}`;

/** 'Поделиться' on the asset info screen: the asset's share links, a create form, copy and revoke. */
export function ShareLinksPanel({ assetId }: { assetId: string }) {
  const [links, setLinks] = useState<LinkOut[] | null>(null);
  const [created, setCreated] = useState<string | null>(null);

  const reload = useCallback(() => {
    api<LinkOut[]>(`/sl/for-entity/${assetId}`).then(setLinks, (error) => {
      setLinks([]);
      showError(error);
    });
  }, [assetId]);
  useEffect(reload, [reload]);

  async function revoke(id: string) {
    try {
      await api(`/sl/${id}`, { method: "DELETE" });
      showInfo(t.revoked);
      reload();
    } catch (error) {
      showError(error);
    }
  }

  return (
    <Paper withBorder p="md" radius="md" aria-label={t.title} component="section">
      <Stack gap="md">
        <Title order={3}>{t.title}</Title>
        <CreateLinkForm
          assetId={assetId}
          onCreated={(id) => {
            setCreated(id);
            reload();
          }}
        />
        {created && (
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" fw={500}>
              {t.created}:
            </Text>
            <Text size="sm" ff="monospace" data-testid="share-link-url" style={{ wordBreak: "break-all" }}>
              {urlOf(created)}
            </Text>
            <LinkCopy url={urlOf(created)} />
          </Group>
        )}
        {links && links.length === 0 && <Text c="dimmed">{t.empty}</Text>}
        {links && links.length > 0 && (
          <Table striped>
            <Table.Tbody>
              {links.map((l) => (
                <Table.Tr key={`${l.link_id}-${l.ctime}`}>
                  <Table.Td ff="monospace">{l.link_id}</Table.Td>
                  <Table.Td>
                    <Badge color={l.state === "active" ? "green" : "gray"} variant="light">
                      {t.states[l.state]}
                    </Badge>
                    {l.has_password && (
                      <Text span size="xs" c="dimmed">
                        {" "}
                        {t.withPassword}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs" c="dimmed">
                      {t.views}: {l.view_count} · {t.downloads}: {l.download_count}
                      {l.download_limit !== null ? ` / ${l.download_limit}` : ""}
                    </Text>
                    {l.time_range[1] !== null && (
                      <Text size="xs" c="dimmed">
                        {ru.share.expiresAt(formatDateTime(l.time_range[1]))}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {l.manageable && l.state !== "revoked" && (
                      <Group gap="xs" justify="flex-end" wrap="nowrap">
                        <LinkCopy url={urlOf(l.link_id)} />
                        <Button size="xs" variant="subtle" color="red" onClick={() => revoke(l.link_id)}>
                          {t.revoke}
                        </Button>
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}

function LinkCopy({ url }: { url: string }) {
  return (
    <CopyButton value={url} timeout={1500}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? t.copied : t.copy} withArrow>
          <ActionIcon variant="subtle" color={copied ? "teal" : "gray"} onClick={copy} aria-label={t.copy}>
            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}
