import { Select } from "@mantine/core";
import { useRevalidator } from "@remix-run/react";
import { ru } from "../../i18n/ru";
import { type GroupRow, setGroupStorage, type Storage } from "../../lib/admin-api";
import { runAction } from "../../lib/actions";
import { showInfo } from "../../lib/notify";

const t = ru.admin.storages;

/** A group's own default storage for new assets; cleared, the group takes its parent's (decision 008). */
export function GroupStorage({ group, storages }: { group: GroupRow; storages: Storage[] }) {
  const { revalidate } = useRevalidator();
  const change = async (storageId: string | null) => {
    if ((await runAction(() => setGroupStorage(group.group_id, storageId))) === undefined) return;
    showInfo(ru.admin.saved);
    revalidate();
  };
  return (
    <Select
      label={t.groupStorage}
      placeholder={t.groupStorageInherited}
      clearable
      maw={420}
      data={storages.map((s) => ({ value: s.storage_id, label: s.storage_name }))}
      value={group.group_default_storage}
      onChange={change}
    />
  );
}
