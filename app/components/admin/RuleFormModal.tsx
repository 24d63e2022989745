import { Modal, SegmentedControl, Stack, Text } from "@mantine/core";
import { useForm } from "@mantine/form";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import { createRuleBody } from "../../../shared/users/schemas";
import { ru } from "../../i18n/ru";
import { createRule, type Permission } from "../../lib/admin-api";
import { ObjectPicker, SubjectPicker, type Picked } from "./EntityPickers";
import { PermissionPicker } from "./PermissionPicker";
import { DialogActions } from "../ui/DialogActions";
import { useDialogSave } from "../ui/use-dialog-save";

const t = ru.admin.rules;

/** The screen's own entity: a user is always the subject; a group may be the object or the subject. */
export interface RuleAnchor {
  id: string;
  type: "user" | "group";
  name: string;
}

interface Props {
  opened: boolean;
  onClose: () => void;
  anchor: RuleAnchor;
  onCreated: () => void;
}

type Side = "object" | "subject";

/**
 * Creates one access rule with the other side picked by search. The form holds the body of POST
 * /api/user/acl (subj, obj, acl) and checks it with the route's own schema; the pickers keep what they show.
 */
export function RuleFormModal({ opened, onClose, anchor, onCreated }: Props) {
  // A user screen: the user is the subject. A group screen: the group is the object unless switched.
  const [side, setSide] = useState<Side>(anchor.type === "user" ? "subject" : "object");
  const [subject, setSubject] = useState<Picked>({ type: "user", option: null });
  const [object, setObject] = useState<Picked>({ type: "group", option: null });
  const form = useForm<{ subj: string | null; obj: string | null; acl: Permission[] }>({
    initialValues: side === "subject" ? { subj: anchor.id, obj: null, acl: ["read"] } : { subj: null, obj: anchor.id, acl: ["read"] },
    validate: zod4Resolver(createRuleBody),
  });
  const picked = side === "subject" ? "obj" : "subj";
  // The anchor's side has no input to show a refusal under (the toast says it); a permission's ("acl.1") is the picker's.
  const fieldOf = (field: string) => (field === picked ? field : field.split(".")[0] === "acl" ? "acl" : null);
  const { busy, save } = useDialogSave(form, onClose, fieldOf);

  const switchSide = (next: Side) => {
    setSide(next);
    const other = next === "subject" ? object.option : subject.option;
    form.setValues(next === "subject" ? { subj: anchor.id, obj: other?.value ?? null } : { subj: other?.value ?? null, obj: anchor.id });
  };
  const pickObject = (value: Picked) => {
    setObject(value);
    form.setFieldValue("obj", value.option?.value ?? null);
  };
  const pickSubject = (value: Picked) => {
    setSubject(value);
    form.setFieldValue("subj", value.option?.value ?? null);
  };

  async function submit({ subj, obj, acl }: typeof form.values) {
    if (!subj || !obj) return;
    // On a refusal (a duplicate rule, a vanished object) the form keeps its choices.
    await save(async () => {
      await createRule(subj, obj, acl);
      onCreated();
      return t.created;
    });
  }

  return (
    <Modal opened={opened} onClose={onClose} title={t.createTitle} size="lg">
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="sm">
          {anchor.type === "group" && (
            <SegmentedControl
              value={side}
              onChange={(v) => switchSide(v as Side)}
              data={[
                { value: "object", label: t.onGroup },
                { value: "subject", label: t.ofGroup },
              ]}
            />
          )}
          <Text size="sm" c="dimmed">
            {side === "subject" ? t.subject : t.object}: <b>{anchor.name}</b>
          </Text>
          {side === "subject" ? (
            <ObjectPicker value={object} onChange={pickObject} error={form.errors[picked] as string | undefined} />
          ) : (
            <SubjectPicker value={subject} onChange={pickSubject} error={form.errors[picked] as string | undefined} />
          )}
          <PermissionPicker
            value={form.values.acl}
            onChange={(acl) => form.setFieldValue("acl", acl)}
            error={form.errors.acl as string | undefined}
          />
          <DialogActions cancelLabel={ru.admin.cancel} onCancel={onClose} label={t.create} busy={busy} />
        </Stack>
      </form>
    </Modal>
  );
}
