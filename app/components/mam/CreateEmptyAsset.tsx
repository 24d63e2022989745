import { Button, Modal, Select, Stack, Text, TextInput } from "@mantine/core";
import { useNavigate } from "@remix-run/react";
import { useState } from "react";
import { fileName } from "../../../functions/assets/schemas";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { listClasses } from "../../lib/metadata-api";
import { showError, showInfo } from "../../lib/notify";
import { createEmptyAsset } from "../viewer/asset-actions-api";
import { DialogActions } from "../ui/DialogActions";

const t = ru.assetActions;

type ClassOption = { value: string; label: string };

function CreateEmptyForm({ groupId, classes, onClose }: { groupId: string; classes: ClassOption[]; onClose: () => void }) {
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [classId, setClassId] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const checked = fileName.safeParse(name);
  const create = async () => {
    setTouched(true);
    if (!checked.success) return;
    setBusy(true);
    const created = await runAction(() => createEmptyAsset(groupId, checked.data, classId));
    setBusy(false);
    if (!created) return;
    showInfo(t.createdEmpty);
    onClose();
    // Its page is where metadata is filled in and a file can be uploaded as its first version.
    navigate(`/mam/${groupId}/asset/${created.asset_id}`);
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void create();
      }}
      noValidate
    >
      <Stack>
        <Text size="sm" c="dimmed">
          {t.createEmptyHint}
        </Text>
        <TextInput
          label={t.createEmptyName}
          required
          data-autofocus
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={touched && !checked.success ? checked.error.issues[0]?.message : undefined}
        />
        <Select
          label={t.assetClass}
          placeholder={t.noClass}
          data={classes}
          value={classId}
          onChange={setClassId}
          clearable
          comboboxProps={{ withinPortal: true }}
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
