import { z } from "@hono/zod-openapi";
import { Button, Checkbox, Group, Modal, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import { sharePasswordMinLength } from "../../../shared/sl/password-rule";
import { password } from "../../../shared/sl/schemas";
import { ru } from "../../i18n/ru";
import { applyServerErrors } from "../../lib/form-errors";
import { showInfo } from "../../lib/notify";
import { type PickOption, RemoteMultiPicker, type SearchOptions } from "../admin/pickers";
import { CopyIconButton } from "../ui/CopyIconButton";
import { findReviewers, type RequestOut, requestReview } from "./review-api";
import { DialogActions } from "../ui/DialogActions";

const t = ru.review.request;

/** datetime-local value (the browser's zone) → unix seconds; empty → undefined (none). */
const toSeconds = (value: string) => (value ? Math.floor(new Date(value).getTime() / 1000) : undefined);
const emailList = (value: string) => value.split(/[,\s;]+/).filter(Boolean);
const notPast = (value: string) => !value || new Date(value).getTime() > Date.now();

/** The form as POST /api/review/requests checks it, on what the inputs hold (text, an empty field for "none"). */
const formSchema = z
  .object({
    users: z.array(z.object({ value: z.string(), label: z.string() })),
    emails: z
      .string()
      .transform(emailList)
      .pipe(z.array(z.email("неверный адрес почты").max(320))),
    due: z.string(),
    allMustApprove: z.boolean(),
    password: z.literal("").or(password),
    expires: z.string().refine(notPast, t.past),
    allowDownload: z.boolean(),
    confirmEmail: z.boolean(),
  })
  .refine((v) => v.users.length + v.emails.length > 0, { message: t.needReviewer, path: ["users"] });

type FormValues = {
  users: PickOption[];
  emails: string;
  due: string;
  allMustApprove: boolean;
  password: string;
  expires: string;
  allowDownload: boolean;
  confirmEmail: boolean;
};

const initialValues: FormValues = {
  users: [],
  emails: "",
  due: "",
  allMustApprove: false,
  password: "",
  expires: "",
  allowDownload: false,
  confirmEmail: false,
};

/**
 * The form's field for a field the server named: `reviewers.N` is the N-th of the sent reviewers, the picked users
 * first and then the typed addresses, so it lands on the input that holds it.
 */
function formField(field: string, users: number): keyof FormValues | null {
  const reviewer = /^reviewers(?:\.(\d+))?/.exec(field);
  if (reviewer) return reviewer[1] !== undefined && Number(reviewer[1]) >= users ? "emails" : "users";
  const direct: Record<string, keyof FormValues> = {
    due: "due",
    all_must_approve: "allMustApprove",
    password: "password",
    expires_at: "expires",
    allow_download: "allowDownload",
    confirm_email: "confirmEmail",
  };
  return direct[field.split(".")[0]] ?? null;
}

/**
 * «Запросить согласование»: team users picked from those who can read the file (GET /api/review/reviewers), outside
 * addresses typed in (each gets a review link), a due date, «Все должны одобрить», and the links' password, expiry,
 * download of the proxy and e-mail confirmation. After the request the links are shown to copy; `onDone` reloads the
 * round. A refusal of the server sits under the input it names.
 */
export function RequestReviewModal(props: {
  opened: boolean;
  onClose: () => void;
  assetId: string;
  version: number;
  /** acl on the asset: inviting outsiders hands out access, as a share link does. */
  mayInvite: boolean;
  /** download on the asset: only then may the links offer the proxy's download. */
  mayDownload: boolean;
  onDone: () => void;
  /** The round's rule so far (a second request keeps or changes it). */
  allMustApprove: boolean;
}) {
  const { assetId, version, mayInvite, mayDownload } = props;
  const [busy, setBusy] = useState(false);
  const [links, setLinks] = useState<RequestOut["links"] | null>(null);
  const form = useForm<FormValues>({
    initialValues: { ...initialValues, allMustApprove: props.allMustApprove },
    validate: zod4Resolver(formSchema),
  });
  const search: SearchOptions = async (q, signal) =>
    (await findReviewers(assetId, q, signal)).map((u) => ({ value: u.user_id, label: `${u.name} (${u.login})` }));

  const close = () => {
    props.onClose();
  };

  const submit = form.onSubmit(async (v) => {
    const emails = emailList(v.emails);
    setBusy(true);
    try {
      const guests = emails.length > 0;
      const out = await requestReview({
        asset_id: assetId,
        version,
        reviewers: [...v.users.map((u) => u.value), ...emails],
        due: toSeconds(v.due),
        all_must_approve: v.allMustApprove,
        // The links' settings go only with addresses: without them the API has no link to apply them to.
        ...(guests
          ? {
              password: v.password || undefined,
              expires_at: toSeconds(v.expires),
              allow_download: v.allowDownload,
              confirm_email: v.confirmEmail,
            }
          : {}),
      });
      showInfo(t.done);
      props.onDone();
      if (out.links.length) setLinks(out.links);
      else close();
    } catch (error) {
      applyServerErrors(form, error, (field) => formField(field, v.users.length));
    } finally {
      setBusy(false);
    }
  });

  return (
    <Modal opened={props.opened} onClose={close} title={t.title} size="lg">
      {links ? (
        <Stack gap="sm" data-testid="review-links">
          <Text fw={600}>{t.links}</Text>
          <Text size="sm" c="dimmed">
            {t.linksHint}
          </Text>
          {links.map((l) => (
            <Group key={l.url} gap="xs" wrap="nowrap" data-testid="review-link">
              <Text size="sm" fw={500} style={{ flexShrink: 0 }}>
                {l.email}
              </Text>
              <Text size="sm" ff="monospace" style={{ wordBreak: "break-all" }} data-testid="review-link-url">
                {l.url}
              </Text>
              <CopyIconButton value={l.url} copyLabel={t.copy} copiedLabel={t.copied} />
            </Group>
          ))}
          <Group justify="flex-end">
            <Button onClick={close}>{t.close}</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <RemoteMultiPicker
              label={t.users}
              description={t.usersHint}
              placeholder={t.usersPlaceholder}
              search={search}
              value={form.values.users}
              onChange={(v) => form.setFieldValue("users", v)}
              error={form.errors.users}
              testId="review-request-users"
            />
            <TextInput
              label={t.emails}
              description={mayInvite ? t.emailsHint : t.emailsNoAcl}
              placeholder="name@example.com"
              disabled={!mayInvite}
              {...form.getInputProps("emails")}
            />
            <Group grow align="end">
              <TextInput type="datetime-local" label={t.due} {...form.getInputProps("due")} />
              <Checkbox label={t.allMustApprove} {...form.getInputProps("allMustApprove", { type: "checkbox" })} />
            </Group>
            {mayInvite && (
              <Stack gap="xs" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
                <Text size="sm" fw={600} component="legend">
                  {t.guests}
                </Text>
                <Group grow align="start">
                  <PasswordInput
                    label={t.password}
                    description={ru.share.panel.passwordHint(sharePasswordMinLength)}
                    autoComplete="new-password"
                    {...form.getInputProps("password")}
                  />
                  <TextInput type="datetime-local" label={t.expires} {...form.getInputProps("expires")} />
                </Group>
                <Group>
                  <Checkbox
                    label={t.allowDownload}
                    disabled={!mayDownload}
                    {...form.getInputProps("allowDownload", { type: "checkbox" })}
                  />
                  <Checkbox label={t.confirmEmail} {...form.getInputProps("confirmEmail", { type: "checkbox" })} />
                </Group>
              </Stack>
            )}
            <DialogActions cancelLabel={t.cancel} onCancel={close} label={t.submit} busy={busy} />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
