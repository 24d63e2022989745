import { Checkbox, Modal, NumberInput, PasswordInput, Select, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import { z } from "zod";
import { createUserBody } from "../../../shared/users/schemas";
import { ru } from "../../i18n/ru";
import { createUser, getGroup, listStorages, updateUser, type AdminUser, type Storage } from "../../lib/admin-api";
import { runAction } from "../../lib/actions";
import { formatSize } from "../../lib/format";

import { GroupsMultiPicker, type PickOption } from "./pickers";
import { DialogActions } from "../ui/DialogActions";
import { useDialogSave } from "../ui/use-dialog-save";

const t = ru.admin.users;
/** The quota is typed in GiB (bytes are what the API takes); empty = the default. */
const GiB = 1024 ** 3;

/** The fields the form checks, with the rules of POST /api/user itself (names, login, the password's length). */
const createRules = createUserBody.pick({ user_name: true, user_login: true, user_passwd: true });
/** Editing: an empty password leaves it as it is; a typed one follows the same rule. */
const editRules = createRules.extend({ user_passwd: z.union([z.literal(""), createUserBody.shape.user_passwd]) });
const passwdMinLength = createUserBody.shape.user_passwd.minLength ?? 0;
/** The payload's fields on the form's: the quota is typed in GiB, the chroot groups are one picker. */
const fieldOf = (field: string) => field.replace(/^quota$/, "quotaGb").replace(/^chroot_groups(\..*)?$/, "chroot");

/** What the form needs besides the user: the storages to choose from and the names of the chroot groups. */
interface FormData {
  user?: AdminUser;
  storages: Storage[];
  chroot: PickOption[];
}

/**
 * Opens the create/edit form of a user. Its data is loaded in the handler that opens it (the storages,
 * the names of the user's chroot groups), not in an effect; `onSaved` gets the user's id and whether
 * the form created them.
 */
export function useUserForm(onSaved: (userId: string, created: boolean) => void) {
  const [data, setData] = useState<FormData | null>(null);
  const [opened, setOpened] = useState(false);
  const [generation, setGeneration] = useState(0);
  const open = async (user?: AdminUser) => {
    const [storages, chroot] = await Promise.all([
      runAction(listStorages).then((found) => found ?? []),
      // Chips show names, not ids; a group that is gone shows its id.
      Promise.all(
        (user?.chroot_groups ?? []).map((id) =>
          getGroup(id).then(
            (g) => ({ value: id, label: g.group_name }),
            () => ({ value: id, label: id }),
          ),
        ),
      ),
    ]);
    setData({ user, storages, chroot });
    setGeneration((n) => n + 1);
    setOpened(true);
  };
  const modal = data && <UserFormModal key={generation} opened={opened} onClose={() => setOpened(false)} {...data} onSaved={onSaved} />;
  return { open, modal };
}

interface Props extends FormData {
  opened: boolean;
  onClose: () => void;
  onSaved: (userId: string, created: boolean) => void;
}

/** Create or edit a user: the create payload of POST /api/user; in edit an empty password leaves it unchanged. */
function UserFormModal({ opened, onClose, user, storages, chroot, onSaved }: Props) {
  const form = useForm({
    initialValues: {
      user_name: user?.user_name ?? "",
      user_login: user?.login ?? "",
      user_passwd: "",
      enabled: user?.enabled ?? true,
      is_robot: user?.is_robot ?? false,
      chroot,
      default_storage: user?.default_storage ?? null,
      quotaGb: user?.quota == null ? "" : (Number((user.quota / GiB).toFixed(3)) as number | string),
    },
    validate: zod4Resolver(user ? editRules : createRules),
  });
  const { busy, save } = useDialogSave(form, onClose, fieldOf);

  async function submit(values: typeof form.values) {
    const common = {
      user_name: values.user_name.trim(),
      user_login: values.user_login.trim(),
      enabled: values.enabled,
      is_robot: values.is_robot,
      chroot_groups: values.chroot.map((o) => o.value),
      default_storage: values.default_storage,
      // Sent only when edited: a quota not a whole number of MiB would otherwise come back rounded.
      ...(form.isDirty("quotaGb") ? { quota: values.quotaGb === "" ? null : Math.round(Number(values.quotaGb) * GiB) } : {}),
    };
    await save(async () => {
      const passwd = values.user_passwd;
      const id = user
        ? (await updateUser(user.user_id, { ...common, ...(passwd ? { user_passwd: passwd } : {}) })).user_id
        : (await createUser({ ...common, user_passwd: passwd })).user_id;
      onSaved(id, !user);
      return user ? ru.admin.saved : t.created;
    });
  }

  return (
    <Modal opened={opened} onClose={onClose} title={user ? t.editTitle : t.createTitle} size="lg">
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="sm">
          <TextInput label={t.name} required {...form.getInputProps("user_name")} />
          <TextInput label={t.login} required autoComplete="off" {...form.getInputProps("user_login")} />
          <PasswordInput
            label={t.passwd}
            required={!user}
            description={user ? t.passwdKeep : t.passwdHint(passwdMinLength)}
            autoComplete="new-password"
            {...form.getInputProps("user_passwd")}
          />
          <Checkbox label={t.enabled} {...form.getInputProps("enabled", { type: "checkbox" })} />
          <Checkbox label={t.robot} {...form.getInputProps("is_robot", { type: "checkbox" })} />
          <GroupsMultiPicker
            label={t.chroot}
            description={t.chrootHint}
            value={form.values.chroot}
            onChange={(chroot) => form.setFieldValue("chroot", chroot)}
          />
          <Select
            label={t.storage}
            placeholder={t.storageNone}
            clearable
            data={storages.map((s) => ({ value: s.storage_id, label: s.storage_name }))}
            {...form.getInputProps("default_storage")}
          />
          <NumberInput
            label={t.quota}
            description={user ? `${t.quotaHint}. ${t.quotaUsed}: ${formatSize(user.quota_used)}` : t.quotaHint}
            min={0}
            decimalScale={3}
            decimalSeparator=","
            allowNegative={false}
            {...form.getInputProps("quotaGb")}
          />
          <DialogActions cancelLabel={ru.admin.cancel} onCancel={onClose} label={ru.admin.save} busy={busy} />
        </Stack>
      </form>
    </Modal>
  );
}
