import { Button, Checkbox, Group, NumberInput, PasswordInput, Stack, TextInput } from "@mantine/core";
import { useState, type FormEvent } from "react";
import { sharePasswordMinLength } from "../../../functions/sl/password-rule";
import type { ShareLinkAclValue } from "../../../functions/sl/schemas";
import { ru } from "../../i18n/ru";
import { api } from "../../lib/api";
import { showError } from "../../lib/notify";

const t = ru.share.panel;
const aclLabels: Record<ShareLinkAclValue, string> = {
  view: t.aclView,
  download_original: t.aclDownloadOriginal,
  download_proxy: t.aclDownloadProxy,
};

/** datetime-local value (the browser's zone) → unix seconds; empty → null (open end). */
const toSeconds = (value: string) => (value ? Math.floor(new Date(value).getTime() / 1000) : null);

/** The create form (spec 3 "Short link payload"); the server validates and its message reaches the toast. */
export function CreateLinkForm({ assetId, onCreated }: { assetId: string; onCreated: (id: string) => void }) {
  const [acl, setAcl] = useState<string[]>(["view", "download_original"]);
  const [password, setPassword] = useState("");
  const [start, setStart] = useState("");
  const [end, setEnd] = useState("");
  const [emails, setEmails] = useState("");
  const [limit, setLimit] = useState<string | number>("");
  const [busy, setBusy] = useState(false);
  // The server refuses a shorter one too (functions/sl/schemas.ts); saying so here saves a round trip.
  const passwordShort = password.length > 0 && password.length < sharePasswordMinLength;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      const id = await api<string>(`/sl/create/${assetId}`, {
        method: "POST",
        body: {
          time_range: [toSeconds(start), toSeconds(end)],
          password: password || null,
          acl,
          email: emails.split(/[,\s;]+/).filter(Boolean),
          download_limit: limit === "" ? null : Number(limit),
        },
      });
      setPassword("");
      onCreated(String(id).trim());
    } catch (error) {
      showError(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit}>
      <Stack gap="sm">
        <Checkbox.Group label={t.acl} value={acl} onChange={setAcl}>
          <Group mt={4}>
            {(Object.keys(aclLabels) as ShareLinkAclValue[]).map((a) => (
              <Checkbox key={a} value={a} label={aclLabels[a]} />
            ))}
          </Group>
        </Checkbox.Group>
        <PasswordInput
          label={t.password}
          description={t.passwordHint(sharePasswordMinLength)}
          error={passwordShort ? t.passwordShort(sharePasswordMinLength) : undefined}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          autoComplete="new-password"
        />
        <Group grow>
          <TextInput type="datetime-local" label={t.start} value={start} onChange={(e) => setStart(e.currentTarget.value)} />
          <TextInput type="datetime-local" label={t.end} value={end} onChange={(e) => setEnd(e.currentTarget.value)} />
        </Group>
        <Group grow>
          <TextInput label={t.emails} value={emails} onChange={(e) => setEmails(e.currentTarget.value)} placeholder="name@example.com" />
          <NumberInput label={t.downloadLimit} value={limit} onChange={setLimit} min={1} allowDecimal={false} />
        </Group>
        <Group>
          <Button type="submit" loading={busy} disabled={acl.length === 0 || passwordShort}>
            {t.create}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
