import { Button, Checkbox, Group, Modal, NumberInput, PasswordInput, Select, Stack, TextInput } from "@mantine/core";
import { useEffect, useState } from "react";
import { ru } from "../../i18n/ru";
import { createUser, getGroup, listStorages, updateUser, type AdminUser, type Storage } from "../../lib/admin-api";
import { runCriticalAction } from "../../lib/actions";
import { formatSize } from "../../lib/format";
import { showInfo } from "../../lib/notify";
import { GroupsMultiPicker } from "./pickers";
import type { PickOption } from "./useRemoteOptions";

const t = ru.admin.users;
/** The quota is typed in GiB (bytes are what the API takes); empty = the default. */
const GiB = 1024 ** 3;

interface Props {
  opened: boolean;
  onClose: () => void;
  /** The user to edit; absent to create one. */
  user?: AdminUser;
  onSaved: (userId: string) => void;
}

/** Create or edit a user: the spec 3 create payload; in edit an empty password leaves it unchanged. */
export function UserFormModal({ opened, onClose, user, onSaved }: Props) {
  const [name, setName] = useState("");
  const [login, setLogin] = useState("");
  const [passwd, setPasswd] = useState("");
  const [enabled, setEnabled] = useState(true);
  const [robot, setRobot] = useState(false);
  const [chroot, setChroot] = useState<PickOption[]>([]);
  const [storage, setStorage] = useState<string | null>(null);
  const [storages, setStorages] = useState<Storage[]>([]);
  const [quotaGb, setQuotaGb] = useState<number | string>("");
  const [quotaTouched, setQuotaTouched] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!opened) return;
    setName(user?.user_name ?? "");
    setLogin(user?.login ?? "");
    setPasswd("");
    setEnabled(user?.enabled ?? true);
    setRobot(user?.is_robot ?? false);
    setStorage(user?.default_storage ?? null);
    setQuotaGb(user?.quota == null ? "" : Number((user.quota / GiB).toFixed(3)));
    setQuotaTouched(false);
    setErrors({});
    setChroot((user?.chroot_groups ?? []).map((id) => ({ value: id, label: id })));
    // Names of the chroot groups, for the chips (ids alone say nothing).
    for (const id of user?.chroot_groups ?? []) {
      getGroup(id).then(
        (g) => setChroot((list) => list.map((o) => (o.value === id ? { value: id, label: g.group_name } : o))),
        () => undefined,
      );
    }
    listStorages().then(setStorages, () => setStorages([]));
  }, [opened, user]);

  function validate() {
    const found: Record<string, string> = {};
    if (!name.trim()) found.name = t.required;
    if (!login.trim()) found.login = t.required;
    if (!user && !passwd) found.passwd = t.required;
    else if (passwd && passwd.length < 8) found.passwd = t.passwdShort;
    setErrors(found);
    return Object.keys(found).length === 0;
  }

  async function submit() {
    if (!validate()) return;
    setBusy(true);
    const common = {
      user_name: name.trim(),
      user_login: login.trim(),
      enabled,
      is_robot: robot,
      chroot_groups: chroot.map((o) => o.value),
      default_storage: storage,
      // Sent only when edited: a quota not a whole number of MiB would otherwise come back rounded.
      ...(quotaTouched ? { quota: quotaGb === "" ? null : Math.round(Number(quotaGb) * GiB) } : {}),
    };
    try {
      const id = user
        ? (await runCriticalAction(() => updateUser(user.user_id, { ...common, ...(passwd ? { user_passwd: passwd } : {}) }))).user_id
        : (await runCriticalAction(() => createUser({ ...common, user_passwd: passwd }))).user_id;
      showInfo(user ? ru.admin.saved : t.created);
      onSaved(id);
      onClose();
    } catch {
      // The toast has said why; the form stays open with what was typed.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title={user ? t.editTitle : t.createTitle} size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <TextInput label={t.name} required value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} />
          <TextInput
            label={t.login}
            required
            value={login}
            onChange={(e) => setLogin(e.currentTarget.value)}
            error={errors.login}
            autoComplete="off"
          />
          <PasswordInput
            label={t.passwd}
            required={!user}
            description={user ? t.passwdKeep : t.passwdHint}
            value={passwd}
            onChange={(e) => setPasswd(e.currentTarget.value)}
            error={errors.passwd}
            autoComplete="new-password"
          />
          <Checkbox label={t.enabled} checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
          <Checkbox label={t.robot} checked={robot} onChange={(e) => setRobot(e.currentTarget.checked)} />
          <GroupsMultiPicker label={t.chroot} description={t.chrootHint} value={chroot} onChange={setChroot} />
          <Select
            label={t.storage}
            placeholder={t.storageNone}
            clearable
            data={storages.map((s) => ({ value: s.storage_id, label: s.storage_name }))}
            value={storage}
            onChange={setStorage}
          />
          <NumberInput
            label={t.quota}
            description={user ? `${t.quotaHint}. ${t.quotaUsed}: ${formatSize(user.quota_used)}` : t.quotaHint}
            value={quotaGb}
            onChange={(v) => {
              setQuotaGb(v);
              setQuotaTouched(true);
            }}
            min={0}
            decimalScale={3}
            decimalSeparator=","
            allowNegative={false}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {ru.admin.cancel}
            </Button>
            <Button type="submit" loading={busy}>
              {ru.admin.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
