import { Button, Group, Modal, SegmentedControl, Stack, Text } from "@mantine/core";
import { useEffect, useState } from "react";
import { ru } from "../../i18n/ru";
import { createRule, type Permission } from "../../lib/admin-api";
import { runCriticalAction } from "../../lib/actions";
import { showInfo } from "../../lib/notify";
import { ObjectPicker, SubjectPicker, type Picked } from "./EntityPickers";
import { PermissionPicker } from "./PermissionPicker";

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

/** Creates one access rule (spec 5: subj, obj and acl required) with the other side picked by search. */
export function RuleFormModal({ opened, onClose, anchor, onCreated }: Props) {
  const [side, setSide] = useState<"object" | "subject">("object");
  const [subject, setSubject] = useState<Picked>({ type: "user", option: null });
  const [object, setObject] = useState<Picked>({ type: "group", option: null });
  const [acl, setAcl] = useState<Permission[]>(["read"]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  // A user screen: the user is the subject. A group screen: the group is the object unless switched.
  const anchorIs = anchor.type === "user" ? "subject" : side === "object" ? "object" : "subject";

  useEffect(() => {
    if (!opened) return;
    setSide("object");
    setSubject({ type: "user", option: null });
    setObject({ type: "group", option: null });
    setAcl(["read"]);
    setErrors({});
  }, [opened]);

  async function submit() {
    const picked = anchorIs === "subject" ? object.option : subject.option;
    const found: Record<string, string> = {};
    if (!picked) found.pick = t.pickRequired;
    if (acl.length === 0) found.acl = t.aclRequired;
    setErrors(found);
    if (!picked || acl.length === 0) return;
    const [subj, obj] = anchorIs === "subject" ? [anchor.id, picked.value] : [picked.value, anchor.id];
    setBusy(true);
    try {
      await runCriticalAction(() => createRule(subj, obj, acl));
      showInfo(t.created);
      onCreated();
      onClose();
    } catch {
      // The toast has said why (a duplicate rule, a vanished object); the form keeps its choices.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title={t.createTitle} size="lg">
      <Stack gap="sm">
        {anchor.type === "group" && (
          <SegmentedControl
            value={side}
            onChange={(v) => setSide(v as "object" | "subject")}
            data={[
              { value: "object", label: t.onGroup },
              { value: "subject", label: t.ofGroup },
            ]}
          />
        )}
        <Text size="sm" c="dimmed">
          {anchorIs === "subject" ? t.subject : t.object}: <b>{anchor.name}</b>
        </Text>
        {anchorIs === "subject" ? (
          <ObjectPicker value={object} onChange={setObject} error={errors.pick} />
        ) : (
          <SubjectPicker value={subject} onChange={setSubject} error={errors.pick} />
        )}
        <PermissionPicker value={acl} onChange={setAcl} error={errors.acl} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {ru.admin.cancel}
          </Button>
          <Button onClick={submit} loading={busy}>
            {t.create}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
