import { Button, Group } from "@mantine/core";
import { useForm } from "@mantine/form";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import { updateRuleBody } from "../../../functions/users/schemas";
import { ru } from "../../i18n/ru";
import { type AccessRule, type Permission, updateRule } from "../../lib/admin-api";
import { runCriticalAction } from "../../lib/actions";
import { showInfo } from "../../lib/notify";
import { PermissionPicker } from "./PermissionPicker";

const t = ru.adminExtra.editRule;

/**
 * A rule's permissions edited where the rule is shown (PATCH /api/user/acl/{id}): the subject and object
 * stay, only the set changes, checked with the route's own schema before it is sent.
 */
export function RuleAclEditor({ rule, onDone, onSaved }: { rule: AccessRule; onDone: () => void; onSaved: () => void }) {
  const form = useForm<{ acl: Permission[] }>({ initialValues: { acl: rule.acl as Permission[] }, validate: zod4Resolver(updateRuleBody) });
  const [busy, setBusy] = useState(false);

  async function submit({ acl }: { acl: Permission[] }) {
    setBusy(true);
    try {
      await runCriticalAction(() => updateRule(rule.rule_id, acl));
      showInfo(t.saved);
      onSaved();
      onDone();
    } catch {
      // The toast has said why; the chips keep the choice.
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate aria-label={t.title}>
      <PermissionPicker
        value={form.values.acl}
        onChange={(acl) => form.setFieldValue("acl", acl)}
        error={form.errors.acl as string | undefined}
      />
      <Group gap="xs" mt="xs">
        <Button size="xs" type="submit" loading={busy}>
          {t.save}
        </Button>
        <Button size="xs" variant="default" onClick={onDone}>
          {ru.admin.cancel}
        </Button>
      </Group>
    </form>
  );
}
