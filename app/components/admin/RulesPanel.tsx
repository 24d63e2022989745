import { Button, Group, Stack, Text, Title } from "@mantine/core";
import { useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { deleteRule, type AccessRule } from "../../lib/admin-api";
import { runAction } from "../../lib/actions";
import { showInfo } from "../../lib/notify";
import { RuleFormModal, type RuleAnchor } from "./RuleFormModal";
import { RulesTable } from "./RulesTable";

const t = ru.admin.rules;

/** The /actives tab: the rules naming a user, or the rules on and of a group (loaded by the tab's route); create and delete. */
export function RulesPanel({ anchor, rules }: { anchor: RuleAnchor; rules: AccessRule[] }) {
  const { revalidate } = useRevalidator();
  // Each opening starts a fresh form.
  const [form, setForm] = useState({ opened: false, generation: 0 });

  async function remove(rule: AccessRule) {
    if (!window.confirm(t.confirmDelete)) return;
    if ((await runAction(() => deleteRule(rule.rule_id))) === undefined) return;
    showInfo(t.deleted);
    revalidate();
  }

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={4}>{t.title}</Title>
        <Button onClick={() => setForm((f) => ({ opened: true, generation: f.generation + 1 }))}>{t.create}</Button>
      </Group>
      {rules.length === 0 ? <Text c="dimmed">{t.empty}</Text> : <RulesTable rules={rules} onDelete={remove} onSaved={revalidate} />}
      <RuleFormModal
        key={form.generation}
        opened={form.opened}
        onClose={() => setForm((f) => ({ ...f, opened: false }))}
        anchor={anchor}
        onCreated={revalidate}
      />
    </Stack>
  );
}
