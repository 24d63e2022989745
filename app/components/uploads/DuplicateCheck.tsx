import { Anchor, Button, Group, Stack, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import * as duplicates from "../../../shared/duplicates/contract";
import { call } from "../../lib/api";
import { deleteAssets } from "../mam/mam-api";
import { duplicatesStore } from "../../lib/duplicate-watch";
import { showError } from "../../lib/notify";
import { useStore } from "../../lib/store";

const t = ru.uploads.duplicates;

/**
 * Under a finished upload: «проверка на дубликаты…» until the transcoder has hashed the stored bytes (the upload
 * queue asks, lib/duplicate-watch.ts), then, when the same bytes are already where the uploader can read them, the
 * three choices of docs/decisions/058-duplicates-and-look-alikes.md. Nothing is shown for a file that is unique.
 */
export function DuplicateCheck({ assetId }: { assetId: string }) {
  const answer = useStore(duplicatesStore).get(assetId) ?? null;
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const act = async (work: () => Promise<string>) => {
    setBusy(true);
    try {
      setDone(await work());
    } catch (error) {
      showError(error);
    } finally {
      setBusy(false);
    }
  };

  if (done !== null)
    return done ? (
      <Text size="xs" c="dimmed" data-testid="duplicate-check" data-state="done">
        {done}
      </Text>
    ) : null;
  if (!answer?.known)
    return (
      <Text size="xs" c="dimmed" data-testid="duplicate-check" data-state="checking">
        {t.checking}
      </Text>
    );
  if (answer.items.length === 0) return null;
  const [first, ...others] = answer.items;
  const where = first.groups[0]?.path;
  return (
    <Stack gap={4} data-testid="duplicate-check" data-state="found">
      <Text size="xs">
        {t.found("")}
        <Anchor component={Link} to={`/asset/${first.id}`} size="xs">
          {first.name}
        </Anchor>
        {where ? ` (${where})` : ""}
        {others.length ? `, ${t.more(others.length)}` : ""}
      </Text>
      <Group gap={4}>
        <Button size="compact-xs" variant="default" disabled={busy} onClick={() => setDone("")}>
          {t.keepBoth}
        </Button>
        <Button
          size="compact-xs"
          variant="default"
          color="red"
          disabled={busy}
          onClick={() =>
            act(async () => {
              await deleteAssets([assetId]);
              return t.deleted;
            })
          }
        >
          {t.deleteUploaded}
        </Button>
        <Button
          size="compact-xs"
          variant="default"
          disabled={busy}
          onClick={() =>
            act(async () => {
              const r = await call(duplicates.mergeAsVersion, { params: { asset_id: assetId, target_id: first.id } });
              return t.merged(first.name, r.version);
            })
          }
        >
          {t.makeVersion(first.name)}
        </Button>
      </Group>
    </Stack>
  );
}
