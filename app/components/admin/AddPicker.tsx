import { Button, Group } from "@mantine/core";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { RemotePicker } from "./pickers";
import type { PickOption } from "./pickers";

/** A search picker with an "add" button; cleared after a successful add. */
export function AddPicker({
  label,
  search,
  onAdd,
  testId,
}: {
  label: string;
  search: (q: string, s: AbortSignal) => Promise<PickOption[]>;
  onAdd: (o: PickOption) => Promise<boolean>;
  testId?: string;
}) {
  const [picked, setPicked] = useState<PickOption | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Group align="end">
      <div style={{ width: 360 }}>
        <RemotePicker label={label} value={picked} onChange={setPicked} search={search} testId={testId} />
      </div>
      <Button
        disabled={!picked}
        loading={busy}
        onClick={async () => {
          if (!picked) return;
          setBusy(true);
          if (await onAdd(picked)) setPicked(null);
          setBusy(false);
        }}
      >
        {ru.admin.add}
      </Button>
    </Group>
  );
}
