import { Alert, Button, Card, Group, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import { useState } from "react";
import type { SharesBody, SharesOut } from "../../../functions/udwf/schemas";
import { ru } from "../../i18n/ru";
import { ApiError } from "../../lib/api";
import { saveShares } from "../../lib/automations-api";
import { showError, showInfo } from "../../lib/notify";

const t = ru.automations.sharing;
type Row = SharesBody["shares"][number];

const rowsOf = (shares: SharesOut) =>
  shares.items.map((s) => ({ subject_type: s.subject_type, subject: s.login ?? s.subject_id, role: s.role }) as Row);

/**
 * Who else sees the workflow (view) or changes and runs it (edit): users by login, teams by group id. Only the owner
 * (or an admin) changes it; the others see the list. Errors sit under the row the server named (shares.N.subject).
 * The edits start from `shares`; a refresh of the same workflow keeps them (the caller keys it by the workflow).
 */
export function SharingCard(props: { workflowId: string; shares: SharesOut; canShare: boolean; onSaved: () => void }) {
  const [rows, setRows] = useState<Row[]>(() => rowsOf(props.shares));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const set = (i: number, patch: Partial<Row>) => setRows(rows.map((r, n) => (n === i ? { ...r, ...patch } : r)));
  const save = async () => {
    setSaving(true);
    setErrors({});
    try {
      await saveShares(props.workflowId, { shares: rows });
      showInfo(t.saved);
      props.onSaved();
    } catch (err) {
      const details = (err instanceof ApiError ? (err.envelope?.details ?? []) : []) as { field: string; message: string }[];
      setErrors(Object.fromEntries(details.map((d) => [d.field, d.message])));
      showError(err);
    } finally {
      setSaving(false);
    }
  };
  const names = new Map(props.shares.items.map((s) => [s.login ?? s.subject_id, s.name]));
  return (
    <Card withBorder data-testid="sharing">
      <Title order={4} mb="xs">
        {t.title}
      </Title>
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          {t.hint}
        </Text>
        {!props.canShare && <Alert color="gray">{t.viewOnly}</Alert>}
        {rows.length === 0 && <Text size="sm">{t.empty}</Text>}
        {rows.map((r, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: controlled rows with no id of their own; the position is their identity
          <Group key={i} align="end" gap="xs">
            <Select
              label={t.subjectType}
              data={["user", "team"].map((v) => ({ value: v, label: t.types[v] }))}
              value={r.subject_type}
              onChange={(v) => v && set(i, { subject_type: v as Row["subject_type"] })}
              disabled={!props.canShare}
              w={150}
            />
            <TextInput
              label={t.subject}
              value={r.subject}
              onChange={(e) => set(i, { subject: e.currentTarget.value })}
              error={errors[`shares.${i}.subject`]}
              description={names.get(r.subject) ?? undefined}
              disabled={!props.canShare}
              w={320}
            />
            <Select
              label={t.role}
              data={["view", "edit"].map((v) => ({ value: v, label: t.roles[v] }))}
              value={r.role}
              onChange={(v) => v && set(i, { role: v as Row["role"] })}
              error={errors[`shares.${i}.role`]}
              disabled={!props.canShare}
              w={200}
            />
            {props.canShare && (
              <Button variant="subtle" color="red" size="xs" onClick={() => setRows(rows.filter((_, n) => n !== i))}>
                {t.remove}
              </Button>
            )}
          </Group>
        ))}
        {props.canShare && (
          <Group>
            <Button variant="subtle" size="xs" onClick={() => setRows([...rows, { subject_type: "user", subject: "", role: "view" }])}>
              {t.add}
            </Button>
            <Button size="xs" onClick={save} loading={saving}>
              {t.save}
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
