import { Anchor, Button, Group, Stack, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { z } from "zod";
import type { duplicatesOfAnswer } from "../../../functions/duplicates/schemas";
import { ru } from "../../i18n/ru";
import { api } from "../../lib/api";
import { showError } from "../../lib/notify";

type DuplicatesOf = z.infer<typeof duplicatesOfAnswer>;

const t = ru.uploads.duplicates;
/** The transcoder hashes a file within seconds of the upload; past this the panel stops asking and says nothing. */
const GIVE_UP_MS = 10 * 60_000;

/**
 * Under a finished upload: «проверка на дубликаты…» until the transcoder has hashed the stored bytes, then, when
 * the same bytes are already where the uploader can read them, the three choices of
 * docs/decisions/058-duplicates-and-look-alikes.md. Nothing is shown for a file that is unique.
 */
export function DuplicateCheck({ assetId }: { assetId: string }) {
  const [answer, setAnswer] = useState<DuplicatesOf | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const started = Date.now();
    const poll = async (delay: number) => {
      try {
        const a = await api<DuplicatesOf>(`/duplicates/of/${assetId}`);
        if (stopped) return;
        setAnswer(a);
        if (a.known) return;
      } catch {
        if (stopped) return; // a deleted asset or a lost connection: ask again later, then give up
      }
      if (Date.now() - started < GIVE_UP_MS) timer = setTimeout(() => poll(Math.min(delay * 1.5, 10_000)), delay);
      else setAnswer((a) => a ?? { known: true, sha256: null, items: [] });
    };
    void poll(1000);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [assetId]);

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
              await api("/asset/delete-list", { method: "POST", body: { ids: [assetId] } });
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
              const r = await api<{ version: number }>(`/duplicates/${assetId}/as-version-of/${first.id}`, { method: "POST" });
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
