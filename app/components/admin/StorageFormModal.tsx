import { Checkbox, Modal, PasswordInput, SegmentedControl, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { zod4Resolver } from "mantine-form-zod-resolver";

import { createStorageBody, updateStorageBody } from "../../../shared/storage/schemas";
import { ru } from "../../i18n/ru";
import { createStorage, type Storage, updateStorage } from "../../lib/admin-api";

import { DialogActions } from "../ui/DialogActions";
import { useDialogSave } from "../ui/use-dialog-save";

const t = ru.admin.storages;

/** The server's rules (creating an S3 storage needs url, bucket and both keys); their errors go to the flat fields. */
const createRules = zod4Resolver(createStorageBody);
const editRules = zod4Resolver(updateStorageBody);
/** The setup's fields are flat on the form. */
const fieldOf = (field: string) => field.replace(/^storage_setup\./, "");

interface Props {
  opened: boolean;
  onClose: () => void;
  /** The storage to edit; none creates one. */
  storage?: Storage;
  /** After a save: the screen reloads and closes the dialog. */
  onSaved: () => void;
}

/** What is typed; empty strings are "not given". */
const blankToUndefined = (v: string) => (v.trim() === "" ? undefined : v.trim());

/**
 * Create or edit a storage. Credentials are write-only: the form never shows them, an empty key field leaves the
 * stored one as it is, and "clear" removes them.
 */
export function StorageFormModal({ opened, onClose, storage, onSaved }: Props) {
  const form = useForm({
    initialValues: {
      storage_name: storage?.storage_name ?? "",
      kind: storage?.kind ?? ("s3" as "s3" | "r2"),
      url: storage?.storage_setup.url ?? "",
      bucket: storage?.storage_setup.bucket ?? "",
      region: storage?.storage_setup.region ?? "",
      user: "",
      passwd: "",
      token: "",
      clear_credentials: false,
    },
    // The server's schemas check the payload the form would send, and their errors land on the form's fields.
    validate: (values) => {
      const { kind: _kind, ...changes } = toPayload(values);
      const errors = storage ? editRules(changes) : createRules(toPayload(values));
      return Object.fromEntries(Object.entries(errors).map(([path, message]) => [fieldOf(path), message]));
    },
  });
  const { busy, save } = useDialogSave(form, onSaved, fieldOf);

  const submit = (values: typeof form.values) =>
    save(async () => {
      const payload = toPayload(values);
      if (!storage) {
        await createStorage(payload);
        return t.created;
      }
      const { kind: _kind, ...changes } = payload;
      const credentials = values.clear_credentials ? { user: undefined, passwd: undefined, clear_credentials: true } : {};
      await updateStorage(storage.storage_id, { ...changes, ...credentials });
      return ru.admin.saved;
    });

  const s3 = form.values.kind === "s3";
  const keyHint = storage?.has_credentials ? t.secretKeep : t.secretWriteOnly;
  return (
    <Modal opened={opened} onClose={onClose} title={storage ? t.editTitle : t.createTitle} size="lg">
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="sm">
          <TextInput label={t.name} required {...form.getInputProps("storage_name")} />
          {!storage && (
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t.kind}
              </Text>
              <SegmentedControl
                data={[
                  { value: "s3", label: t.kinds.s3 },
                  { value: "r2", label: t.kinds.r2 },
                ]}
                {...form.getInputProps("kind")}
              />
            </Stack>
          )}
          {s3 && (
            <>
              <TextInput label={t.url} required placeholder="https://s3.example.com" {...form.getInputProps("url")} />
              <TextInput label={t.bucket} required {...form.getInputProps("bucket")} />
              <TextInput label={t.region} {...form.getInputProps("region")} />
              <TextInput label={t.user} required={!storage} description={keyHint} autoComplete="off" {...form.getInputProps("user")} />
              <PasswordInput
                label={t.passwd}
                required={!storage}
                description={keyHint}
                autoComplete="new-password"
                {...form.getInputProps("passwd")}
              />
              <PasswordInput label={t.token} autoComplete="new-password" {...form.getInputProps("token")} />
              {storage?.has_credentials && (
                <Checkbox label={t.clearCredentials} {...form.getInputProps("clear_credentials", { type: "checkbox" })} />
              )}
            </>
          )}
          <DialogActions cancelLabel={ru.admin.cancel} onCancel={onClose} label={ru.admin.save} busy={busy} />
        </Stack>
      </form>
    </Modal>
  );
}

/** The API's payload from the flat form: setup fields nested, empty fields left out. */
function toPayload(values: {
  storage_name: string;
  kind: "s3" | "r2";
  url: string;
  bucket: string;
  region: string;
  user: string;
  passwd: string;
  token: string;
}) {
  return {
    storage_name: values.storage_name,
    kind: values.kind,
    storage_setup:
      values.kind === "s3"
        ? { url: blankToUndefined(values.url), bucket: blankToUndefined(values.bucket), region: blankToUndefined(values.region) }
        : {},
    user: blankToUndefined(values.user),
    passwd: blankToUndefined(values.passwd),
    token: blankToUndefined(values.token),
  };
}
