import { Button, Modal, Select, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useNavigate } from "@remix-run/react";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import { createAssetBody } from "../../../shared/assets/schemas";
import { ru } from "../../i18n/ru";
import { applyServerErrors } from "../../lib/form-errors";
import { listClasses } from "../../lib/metadata-api";
import { showError, showInfo } from "../../lib/notify";
import { createEmptyAsset } from "../viewer/asset-actions-api";
import { DialogActions } from "../ui/DialogActions";

const t = ru.assetActions;

type ClassOption = { value: string; label: string };

/** The name as POST /api/asset/create checks it (the class is one of the list, or none). */
const rules = createAssetBody.pick({ asset_name: true });

/** The name and class of the new asset; a refusal shows under the field the server names, else in the toast. */
function CreateEmptyForm({ groupId, classes, onClose }: { groupId: string; classes: ClassOption[]; onClose: () => void }) {
  const navigate = useNavigate();
  const form = useForm({ initialValues: { asset_name: "", asset_class: null as string | null }, validate: zod4Resolver(rules) });
  const [busy, setBusy] = useState(false);
  const create = async ({ asset_name, asset_class }: typeof form.values) => {
    setBusy(true);
    try {
      const created = await createEmptyAsset(groupId, asset_name.trim(), asset_class);
      showInfo(t.createdEmpty);
      onClose();
      // Its page is where metadata is filled in and a file can be uploaded as its first version.
      navigate(`/mam/${groupId}/asset/${created.asset_id}`);
    } catch (err) {
      applyServerErrors(form, err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={form.onSubmit(create)} noValidate>
      <Stack>
        <Text size="sm" c="dimmed">
          {t.createEmptyHint}
        </Text>
        <TextInput label={t.createEmptyName} required data-autofocus {...form.getInputProps("asset_name")} />
        <Select
          label={t.assetClass}
          placeholder={t.noClass}
          data={classes}
          clearable
          comboboxProps={{ withinPortal: true }}
          {...form.getInputProps("asset_class")}
        />
        <DialogActions cancelLabel={t.cancel} onCancel={onClose} label={t.create} busy={busy} />
      </Stack>
    </form>
  );
}

/**
 * «Создать без файла»: an asset with a name and a class and no content (spec 3's abstract entity), to hold metadata;
 * a file uploaded into it later becomes its first version (decision 055).
 */
export function CreateEmptyAsset({ groupId }: { groupId: string }) {
  // The form opens once the classes it offers have loaded (null: closed).
  const [classes, setClasses] = useState<ClassOption[] | null>(null);
  const [loading, setLoading] = useState(false);
  const open = () => {
    setLoading(true);
    listClasses()
      .then((list) => setClasses(list.map((c) => ({ value: c.id, label: c.name }))), showError)
      .finally(() => setLoading(false));
  };
  const close = () => setClasses(null);
  return (
    <>
      <Button size="xs" variant="subtle" onClick={open} loading={loading}>
        {t.createEmpty}
      </Button>
      <Modal opened={classes !== null} onClose={close} title={t.createEmpty} centered>
        {classes && <CreateEmptyForm groupId={groupId} classes={classes} onClose={close} />}
      </Modal>
    </>
  );
}
