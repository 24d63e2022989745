import { Badge, Button, Group, NumberInput, Paper, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useRevalidator } from "@remix-run/react";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import { z } from "zod";
import { tokenBody } from "../../../shared/users/schemas";
import { ru } from "../../i18n/ru";
import { issueToken, revokeToken, type ApiToken, type IssuedToken } from "../../lib/admin-api";
import { runAction } from "../../lib/actions";
import { applyServerErrors } from "../../lib/form-errors";
import { formatDateTime } from "../../lib/format";
import { showInfo } from "../../lib/notify";
import { IssuedTokenModal } from "./IssuedTokenModal";
import { DataTable } from "../ui/DataTable";
import { DangerButton } from "../ui/RowActions";

const t = ru.admin.tokens;

/** The body of POST /api/user/{id}/tokens with its own rules; an empty number of days means "never expires". */
const issueRules = tokenBody.extend({ expires_in_days: z.union([z.literal(""), tokenBody.shape.expires_in_days.unwrap()]) });

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

/**
 * A robot's API tokens (loaded by the user's screen): issue one (its secret shown once), list them, revoke. A refused
 * issue shows under the field the server names, anything else in the toast (applyServerErrors).
 */
export function TokensPanel({ userId, tokens }: { userId: string; tokens: ApiToken[] }) {
  const { revalidate } = useRevalidator();
  const form = useForm({
    initialValues: { name: "", expires_in_days: "" as number | "" },
    validate: zod4Resolver(issueRules),
  });
  const [issued, setIssued] = useState<IssuedToken | null>(null);
  const [busy, setBusy] = useState(false);

  async function issue({ name, expires_in_days }: typeof form.values) {
    setBusy(true);
    try {
      setIssued(await issueToken(userId, name.trim(), expires_in_days === "" ? undefined : expires_in_days));
      form.reset();
      revalidate();
    } catch (err) {
      applyServerErrors(form, err);
    } finally {
      setBusy(false);
    }
  }

  async function revoke(tokenId: string) {
    if ((await runAction(() => revokeToken(userId, tokenId))) === undefined) return;
    showInfo(t.revoked);
    revalidate();
  }

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={t.title}>
      <Stack gap="sm">
        <Title order={4}>{t.title}</Title>
        <Text size="sm" c="dimmed">
          {t.hint}
        </Text>
        <form onSubmit={form.onSubmit(issue)} noValidate>
          <Group align="end">
            <TextInput label={t.name} w={260} {...form.getInputProps("name")} />
            <NumberInput label={t.days} placeholder={t.daysHint} allowDecimal={false} w={220} {...form.getInputProps("expires_in_days")} />
            <Button type="submit" loading={busy}>
              {t.issue}
            </Button>
          </Group>
        </form>
        {tokens.length === 0 && (
          <Text c="dimmed" size="sm">
            {t.empty}
          </Text>
        )}
        {tokens.length > 0 && (
          <DataTable verticalSpacing="xs" head={[t.columns.name, t.columns.ctime, t.columns.expires, t.columns.state, ""]} rows={tokens}>
            {(tok) => (
              <Table.Tr key={tok.token_id} data-testid="token-row">
                <Table.Td>{tok.name}</Table.Td>
                <Table.Td>{formatDateTime(tok.ctime)}</Table.Td>
                <Table.Td>{tok.expires_at ? formatDateTime(tok.expires_at) : t.never}</Table.Td>
                <Table.Td>
                  <TokenState token={tok} />
                </Table.Td>
                <Table.Td>{!tok.revoked_at && <DangerButton onClick={() => revoke(tok.token_id)}>{t.revoke}</DangerButton>}</Table.Td>
              </Table.Tr>
            )}
          </DataTable>
        )}
      </Stack>
      <IssuedTokenModal token={issued} onClose={() => setIssued(null)} />
    </Paper>
  );
}
