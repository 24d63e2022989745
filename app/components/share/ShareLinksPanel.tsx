import { Badge, Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { useRevalidator } from "@remix-run/react";
import { useState } from "react";
import * as sl from "../../../shared/sl/contract";
import type { LinkOut } from "../../../shared/sl/schemas";
import { ru } from "../../i18n/ru";
import { call } from "../../lib/api";
import { formatDateTime } from "../../lib/format";
import { showError, showInfo } from "../../lib/notify";
import { CopyIconButton } from "../ui/CopyIconButton";
import { CreateLinkForm } from "./CreateLinkForm";
import { DataTable } from "../ui/DataTable";
import { DangerButton, RowActions } from "../ui/RowActions";

const t = ru.share.panel;
const urlOf = (id: string) => `${window.location.origin}/sl/${id}`;
/** Where a listed link leads: a review link (decision 061) opens its review page, not the share page. */
const linkUrl = (l: LinkOut) => (l.kind === "review" ? `${window.location.origin}/review/${l.link_id}` : urlOf(l.link_id));

export const shareLinksOf = (assetId: string, signal?: AbortSignal) => call(sl.linksOfAsset, { params: { id: assetId }, signal });

/**
 * 'Поделиться' on the asset info screen: the asset's share links (loaded by the route with the rest of the
 * screen), a create form, copy and revoke; after a change the route loads them again.
 */
export function ShareLinksPanel({ assetId, links }: { assetId: string; links: LinkOut[] }) {
  const [created, setCreated] = useState<string | null>(null);
  const { revalidate } = useRevalidator();

  async function revoke(id: string) {
    try {
      await call(sl.revokeLink, { params: { id } });
      showInfo(t.revoked);
      revalidate();
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
            revalidate();
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
            <CopyIconButton value={urlOf(created)} copyLabel={t.copy} copiedLabel={t.copied} />
          </Group>
        )}
        {links.length === 0 && <Text c="dimmed">{t.empty}</Text>}
        {links.length > 0 && (
          <DataTable striped rows={links}>
            {(l) => (
              <Table.Tr key={`${l.link_id}-${l.ctime}`}>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {l.link_id}
                  </Text>
                  {l.kind === "review" && (
                    <Text size="xs" c="dimmed" data-testid="review-link-kind">
                      {l.email[0] ? ru.review.request.reviewLinkFor(l.email[0]) : ru.review.request.reviewLink}
                    </Text>
                  )}
                </Table.Td>
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
                {l.manageable && l.state !== "revoked" ? (
                  <RowActions justify="flex-end">
                    <CopyIconButton value={linkUrl(l)} copyLabel={t.copy} copiedLabel={t.copied} />
                    <DangerButton onClick={() => revoke(l.link_id)}>{t.revoke}</DangerButton>
                  </RowActions>
                ) : (
                  <Table.Td />
                )}
              </Table.Tr>
            )}
          </DataTable>
        )}
      </Stack>
    </Paper>
  );
}
