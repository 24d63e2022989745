import { z } from "@hono/zod-openapi";
import { Button, Checkbox, Group, NumberInput, PasswordInput, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import * as sl from "../../../shared/sl/contract";
import { sharePasswordMinLength } from "../../../shared/sl/password-rule";
import { acl, downloadLimit, emails, password, type ShareLinkAclValue, timeRange } from "../../../shared/sl/schemas";
import { ru } from "../../i18n/ru";
import { call } from "../../lib/api";
import { applyServerErrors } from "../../lib/form-errors";

const t = ru.share.panel;
const aclLabels: Record<ShareLinkAclValue, string> = {
  view: t.aclView,
  download_original: t.aclDownloadOriginal,
  download_proxy: t.aclDownloadProxy,
};

/** datetime-local value (the browser's zone) → unix seconds; empty → null (open end). */
const toSeconds = (value: string) => (value ? Math.floor(new Date(value).getTime() / 1000) : null);
const emailList = (value: string) => value.split(/[,\s;]+/).filter(Boolean);

/**
 * The form's fields as the server checks them (shared/sl/schemas.ts): the same acl, password, address,
 * limit and time-range rules, applied to what the inputs hold (text, an empty field for "none").
 */
const formSchema = z
  .object({
    acl,
    password: z.literal("").or(password),
    start: z.string(),
    end: z.string(),
    emails: z.string().transform(emailList).pipe(emails),
    limit: z.literal("").or(downloadLimit),
  })
  .superRefine((v, ctx) => {
    const range = timeRange.safeParse([toSeconds(v.start), toSeconds(v.end)]);
    if (!range.success) ctx.addIssue({ code: "custom", path: ["end"], message: range.error.issues[0]?.message ?? "" });
  });

/** The payload's fields on the form's: the recipients are one line, a right ("acl.1") is the group of checkboxes. */
const formFields: Record<string, string> = { acl: "acl", password: "password", email: "emails", download_limit: "limit" };
/** The payload's paths on the form's fields; the window's start is "time_range.0", its end (and the pair) the end's. */
const fieldOf = (field: string) => {
  const [head, index] = field.split(".");
  if (head === "time_range") return index === "0" ? "start" : "end";
  return formFields[head] ?? null;
};

type FormValues = { acl: string[]; password: string; start: string; end: string; emails: string; limit: number | "" };

/**
 * The create form (the share-link payload: window, password, rights, recipients, limit). A refusal shows under the
 * input the server names, anything else in the toast (applyServerErrors).
 */
export function CreateLinkForm({ assetId, onCreated }: { assetId: string; onCreated: (id: string) => void }) {
  const [busy, setBusy] = useState(false);
  const form = useForm<FormValues>({
    initialValues: { acl: ["view", "download_original"], password: "", start: "", end: "", emails: "", limit: "" },
    validate: zod4Resolver(formSchema),
    validateInputOnChange: true,
  });

  const submit = form.onSubmit(async (v) => {
    setBusy(true);
    try {
      const id = await call(sl.createLink, {
        params: { id: assetId },
        body: {
          time_range: [toSeconds(v.start), toSeconds(v.end)],
          password: v.password || null,
          // The checkbox group holds strings; formSchema has checked them against the rights.
          acl: v.acl as ShareLinkAclValue[],
          email: emailList(v.emails),
          download_limit: v.limit === "" ? null : v.limit,
        },
      });
      form.setFieldValue("password", "");
      onCreated(String(id).trim());
    } catch (error) {
      applyServerErrors(form, error, fieldOf);
    } finally {
      setBusy(false);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Checkbox.Group label={t.acl} {...form.getInputProps("acl")}>
          <Group mt={4}>
            {(Object.keys(aclLabels) as ShareLinkAclValue[]).map((a) => (
              <Checkbox key={a} value={a} label={aclLabels[a]} />
            ))}
          </Group>
        </Checkbox.Group>
        <PasswordInput
          label={t.password}
          description={t.passwordHint(sharePasswordMinLength)}
          autoComplete="new-password"
          {...form.getInputProps("password")}
        />
        <Group grow>
          <TextInput type="datetime-local" label={t.start} {...form.getInputProps("start")} />
          <TextInput type="datetime-local" label={t.end} {...form.getInputProps("end")} />
        </Group>
        <Group grow>
          <TextInput label={t.emails} placeholder="name@example.com" {...form.getInputProps("emails")} />
          <NumberInput label={t.downloadLimit} min={1} allowDecimal={false} {...form.getInputProps("limit")} />
        </Group>
        <Group>
          <Button type="submit" loading={busy} disabled={!form.isValid()}>
            {t.create}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
