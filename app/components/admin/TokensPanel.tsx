import { Badge, Button, Group, NumberInput, Paper, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useCallback, useEffect, useState } from "react";
import { ru } from "../../i18n/ru";
import { issueToken, listTokens, revokeToken, type ApiToken, type IssuedToken } from "../../lib/admin-api";
import { runAction } from "../../lib/actions";
import { formatDateTime } from "../../lib/format";
import { showInfo } from "../../lib/notify";
import { IssuedTokenModal } from "./IssuedTokenModal";

const t = ru.admin.tokens;

function TokenState({ token }: { token: ApiToken }) {
  if (token.revoked_at)
    return (
      <Badge color="gray" variant="light">
        {t.revokedState}
      </Badge>
    );
  if (token.expires_at && token.expires_at * 1000 < Date.now())
    return (
      <Badge color="orange" variant="light">
        {t.expired}
      </Badge>
    );
  return (
    <Badge color="teal" variant="light">
      {t.active}
    </Badge>
  );
}

/** A robot's API tokens: issue one (its secret shown once), list them, revoke. */
export function TokensPanel({ userId }: { userId: string }) {
  const [tokens, setTokens] = useState<ApiToken[] | null>(null);
  const [name, setName] = useState("");
  const [days, setDays] = useState<string | number>("");
  const [issued, setIssued] = useState<IssuedToken | null>(null);
  const [busy, setBusy] = useState(false);

  const reload = useCallback(async () => setTokens((await runAction(() => listTokens(userId))) ?? []), [userId]);
  useEffect(() => {
    void reload();
  }, [reload]);

  async function issue() {
    if (!name.trim()) return;
    setBusy(true);
    const token = await runAction(() => issueToken(userId, name.trim(), typeof days === "number" && days > 0 ? days : undefined));
    setBusy(false);
    if (!token) return;
    setIssued(token);
    setName("");
    setDays("");
    void reload();
  }

  async function revoke(tokenId: string) {
    if ((await runAction(() => revokeToken(userId, tokenId))) === undefined) return;
    showInfo(t.revoked);
    void reload();
  }

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={t.title}>
      <Stack gap="sm">
        <Title order={4}>{t.title}</Title>
        <Text size="sm" c="dimmed">
          {t.hint}
        </Text>
        <Group align="end">
          <TextInput label={t.name} value={name} onChange={(e) => setName(e.currentTarget.value)} w={260} />
          <NumberInput label={t.days} placeholder={t.daysHint} value={days} onChange={setDays} min={1} max={3650} w={220} />
          <Button onClick={issue} loading={busy} disabled={!name.trim()}>
            {t.issue}
          </Button>
        </Group>
        {tokens && tokens.length === 0 && (
          <Text c="dimmed" size="sm">
            {t.empty}
          </Text>
        )}
        {tokens && tokens.length > 0 && (
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                {[t.columns.name, t.columns.ctime, t.columns.expires, t.columns.state, ""].map((h) => (
                  <Table.Th key={h}>{h}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tokens.map((tok) => (
                <Table.Tr key={tok.token_id} data-testid="token-row">
                  <Table.Td>{tok.name}</Table.Td>
                  <Table.Td>{formatDateTime(tok.ctime)}</Table.Td>
                  <Table.Td>{tok.expires_at ? formatDateTime(tok.expires_at) : t.never}</Table.Td>
                  <Table.Td>
                    <TokenState token={tok} />
                  </Table.Td>
                  <Table.Td>
                    {!tok.revoked_at && (
                      <Button size="xs" variant="subtle" color="red" onClick={() => revoke(tok.token_id)}>
                        {t.revoke}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      <IssuedTokenModal token={issued} onClose={() => setIssued(null)} />
    </Paper>
  );
}
