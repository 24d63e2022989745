import { Button, Group, Stack, Text, Title } from "@mantine/core";
import { useCallback, useEffect, useState } from "react";
import { ru } from "../../i18n/ru";
import { deleteRule, groupRules, userRules, type AccessRule } from "../../lib/admin-api";
import { runAction } from "../../lib/actions";
import { showInfo } from "../../lib/notify";
import { RuleFormModal, type RuleAnchor } from "./RuleFormModal";
import { RulesTable } from "./RulesTable";

const t = ru.admin.rules;

/** The /actives tab: the rules naming a user, or the rules on and of a group; create and delete. */
export function RulesPanel({ anchor }: { anchor: RuleAnchor }) {
  const [rules, setRules] = useState<AccessRule[] | null>(null);
  const [formOpen, setFormOpen] = useState(false);

  const reload = useCallback(async () => {
    const found = await runAction(() => (anchor.type === "user" ? userRules(anchor.id) : groupRules(anchor.id)));
    setRules(found ?? []);
  }, [anchor.id, anchor.type]);
  useEffect(() => {
    void reload();
  }, [reload]);

  async function remove(rule: AccessRule) {
    if (!window.confirm(t.confirmDelete)) return;
    if ((await runAction(() => deleteRule(rule.rule_id))) === undefined) return;
    showInfo(t.deleted);
    void reload();
  }

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={4}>{t.title}</Title>
        <Button onClick={() => setFormOpen(true)}>{t.create}</Button>
      </Group>
      {rules === null ? (
        <Text c="dimmed">{ru.admin.loading}</Text>
      ) : rules.length === 0 ? (
        <Text c="dimmed">{t.empty}</Text>
      ) : (
        <RulesTable rules={rules} onDelete={remove} />
      )}
      <RuleFormModal opened={formOpen} onClose={() => setFormOpen(false)} anchor={anchor} onCreated={() => void reload()} />
    </Stack>
  );
}
