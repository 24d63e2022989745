import { Alert, Button, Card, Group, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import { type SharesBody, type SharesOut, sharesBody } from "../../../shared/udwf/schemas";
import { ru } from "../../i18n/ru";
import { saveShares } from "../../lib/automations-api";
import { applyServerErrors } from "../../lib/form-errors";
import { showInfo } from "../../lib/notify";

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
  const form = useForm<SharesBody>({ initialValues: { shares: rowsOf(props.shares) }, validate: zod4Resolver(sharesBody) });
  const [saving, setSaving] = useState(false);
  const save = async (values: SharesBody) => {
    setSaving(true);
    try {
      await saveShares(props.workflowId, values);
      showInfo(t.saved);
      props.onSaved();
    } catch (err) {
      applyServerErrors(form, err);
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
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            {t.hint}
          </Text>
          {!props.canShare && <Alert color="gray">{t.viewOnly}</Alert>}
          {form.values.shares.length === 0 && <Text size="sm">{t.empty}</Text>}
          {form.values.shares.map((r, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: controlled rows with no id of their own; the position is their identity
            <Group key={i} align="end" gap="xs">
              <Select
                label={t.subjectType}
                data={["user", "team"].map((v) => ({ value: v, label: t.types[v] }))}
                {...form.getInputProps(`shares.${i}.subject_type`)}
                allowDeselect={false}
                disabled={!props.canShare}
                w={150}
              />
              <TextInput
                label={t.subject}
                {...form.getInputProps(`shares.${i}.subject`)}
                description={names.get(r.subject) ?? undefined}
                disabled={!props.canShare}
                w={320}
              />
              <Select
                label={t.role}
                data={["view", "edit"].map((v) => ({ value: v, label: t.roles[v] }))}
                {...form.getInputProps(`shares.${i}.role`)}
                allowDeselect={false}
                disabled={!props.canShare}
                w={200}
              />
              {props.canShare && (
                <Button variant="subtle" color="red" size="xs" onClick={() => form.removeListItem("shares", i)}>
                  {t.remove}
                </Button>
              )}
            </Group>
          ))}
          {props.canShare && (
            <Group>
              <Button
                variant="subtle"
                size="xs"
                onClick={() => form.insertListItem("shares", { subject_type: "user", subject: "", role: "view" })}
              >
                {t.add}
              </Button>
              <Button type="submit" size="xs" loading={saving}>
                {t.save}
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </Card>
  );
}
