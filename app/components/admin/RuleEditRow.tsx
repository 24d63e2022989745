import { Button, Group } from "@mantine/core";
import { useForm } from "@mantine/form";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { updateRuleBody } from "../../../shared/users/schemas";
import { ru } from "../../i18n/ru";
import { type AccessRule, type Permission, updateRule } from "../../lib/admin-api";
import { PermissionPicker } from "./PermissionPicker";
import { useDialogSave } from "../ui/use-dialog-save";

const t = ru.adminExtra.editRule;

/**
 * A rule's permissions edited where the rule is shown (PATCH /api/user/acl/{id}): the subject and object
 * stay, only the set changes, checked with the route's own schema before it is sent; a refusal shows under the
 * chips or in the toast (applyServerErrors).
 */
export function RuleAclEditor({ rule, onDone, onSaved }: { rule: AccessRule; onDone: () => void; onSaved: () => void }) {
  const form = useForm<{ acl: Permission[] }>({ initialValues: { acl: rule.acl as Permission[] }, validate: zod4Resolver(updateRuleBody) });
  // A refused permission ("acl.1") is the picker's; the chips keep the choice.
  const { busy, save } = useDialogSave(form, onDone, (field) => (field.split(".")[0] === "acl" ? "acl" : null));

  async function submit({ acl }: { acl: Permission[] }) {
    await save(async () => {
      await updateRule(rule.rule_id, acl);
      onSaved();
      return t.saved;
    });
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
