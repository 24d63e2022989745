import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Text, Textarea, TextInput, Title } from "@mantine/core";
import { Form, useRevalidator } from "@remix-run/react";
import { useRef, useState } from "react";
import type { GuestInfo, GuestLiveTicket } from "../../../shared/review/guest-schemas";
import type { CommentOut, CommentsOut } from "../../../shared/review/schemas";
import { ru } from "../../i18n/ru";
import { reviewGuest as t } from "../../i18n/ru-review";
import { momentAt } from "../viewer/review-api";
import { pdfSrc, usePdfPage } from "../viewer/pdf-page";
import { applyComment, type GuestApproval, useLiveRoom } from "../viewer/review-live";
import { Watching } from "../viewer/Watching";
import type { GuestActed } from "../../server/review-guest.server";

/**
 * The external reviewer's page (docs/decisions/061-review-and-approval.md, "External reviewers"): the asset's proxy,
 * the round's comments (never internal ones), the name once, the e-mail code when asked, comments at the paused frame,
 * replies and the decision. Data comes from the route's loader; every form posts to the route's action. The live room
 * (as the viewer's, review-live.ts) brings others' comments and decisions meanwhile; after a drop the loader runs again.
 */
export function GuestReview({
  info,
  comments: loaded,
  ticket,
  acted,
}: {
  info: GuestInfo;
  comments: CommentsOut;
  /** The loader's ticket to the live room; null when it could not be had. */
  ticket: GuestLiveTicket | null;
  acted?: GuestActed;
}) {
  const player = useRef<HTMLVideoElement>(null);
  const guest = info.guest!;
  const { comments, approval, watchers } = useGuestLive(info, loaded, ticket, player);
  const canSpeak = !!guest.name && guest.email_confirmed;
  // A PDF's comments go to a page, as in the viewer (docs/decisions/061, "PDF pages").
  const paged = info.asset?.mime === "application/pdf";
  // The link plays a PDF's proxy, its pages as pictures (decision 073); a click on a comment's page opens it there.
  const pdf = usePdfPage(paged ? info.play : null, undefined);
  const errorFor = (intent: string) =>
    acted?.intent === intent && acted.error ? (
      <Alert color="red" role="alert">
        {acted.error}
      </Alert>
    ) : null;
  /** The paused frame goes with the comment as a frame at the version's rate (the viewer's rule, review-api.ts). */
  const stampFrame = (e: React.FormEvent<HTMLFormElement>) => {
    const at = e.currentTarget.elements.namedItem("at") as HTMLInputElement | null;
    const video = player.current;
    if (at) at.value = video && info.asset?.kind === "video" ? JSON.stringify(momentAt(video.currentTime, info.rate)) : "";
  };

  return (
    <Stack gap="md">
      <Stack gap={2}>
        <Title order={2}>{info.asset?.name}</Title>
        <Text c="dimmed" size="sm">
          {t.version(info.version ?? 1)}
        </Text>
      </Stack>
      {info.play && info.asset?.kind === "video" ? (
        // biome-ignore lint/a11y/useMediaCaption: a reviewer's proxy has no captions
        <video
          ref={player}
          src={info.play}
          controls
          preload="metadata"
          style={{ width: "100%", background: "#000" }}
          data-testid="guest-player"
        />
      ) : info.play && paged ? (
        <iframe
          key={pdf.at?.n ?? 0}
          src={pdfSrc(pdf.at?.src ?? info.play, pdf.at)}
          title={info.asset?.name}
          style={{ width: "100%", height: "75vh", border: 0, background: "white" }}
        />
      ) : info.play && info.asset?.kind === "image" ? (
        <img src={info.play} alt={info.asset.name} style={{ maxWidth: "100%" }} />
      ) : info.play && info.asset?.kind === "audio" ? (
        // biome-ignore lint/a11y/useMediaCaption: a reviewer's proxy has no captions
        <audio src={info.play} controls />
      ) : (
        <Text c="dimmed">{t.noPlayer}</Text>
      )}
      {/* Only the others are sent without an id: the guest's own entry keeps its id, so "" stands for "me" here. */}
      <Watching watchers={watchers.filter((w) => w.user_id === null)} me="" rate={info.rate} />
      {info.download && (
        <a href={info.download} download>
          {t.download}
        </a>
      )}

      {!guest.name ? (
        <Paper withBorder p="md">
          <Form method="post">
            <input type="hidden" name="intent" value="name" />
            <Stack gap="sm" maw={360}>
              <Title order={3}>{t.nameTitle}</Title>
              <Text size="sm" c="dimmed">
                {t.nameHint}
              </Text>
              {errorFor("name")}
              <TextInput name="name" label={t.name} required maxLength={100} />
              <Button type="submit">{t.nameSave}</Button>
            </Stack>
          </Form>
        </Paper>
      ) : (
        <Text size="sm">{t.youAre(guest.name)}</Text>
      )}

      {guest.name && !guest.email_confirmed && (
        <Paper withBorder p="md">
          <Stack gap="sm" maw={360}>
            <Title order={3}>{t.confirmTitle}</Title>
            <Text size="sm">{t.confirmHint(guest.email)}</Text>
            {acted?.intent === "code" && acted.sentTo && <Text size="sm">{t.codeSent(acted.sentTo)}</Text>}
            {errorFor("code")}
            <Form method="post">
              <input type="hidden" name="intent" value="code" />
              <Button type="submit" variant="light">
                {t.sendCode}
              </Button>
            </Form>
            <Form method="post">
              <input type="hidden" name="intent" value="confirm" />
              <Stack gap="xs">
                {errorFor("confirm")}
                <TextInput name="code" label={t.code} inputMode="numeric" autoComplete="one-time-code" maxLength={6} required />
                <Button type="submit">{t.confirm}</Button>
              </Stack>
            </Form>
          </Stack>
        </Paper>
      )}

      {canSpeak && (
        <Form method="post" onSubmit={stampFrame}>
          <input type="hidden" name="intent" value="comment" />
          <input type="hidden" name="at" />
          <Stack gap="xs">
            {errorFor("comment")}
            <Textarea
              name="body"
              label={info.asset?.kind === "video" ? t.commentText : t.commentTextNoTime}
              required
              autosize
              minRows={2}
              onFocus={() => player.current?.pause()}
            />
            {paged && (
              <TextInput
                name="page"
                type="number"
                label={ru.review.page.label}
                description={comments.pages ? ru.review.page.of(comments.pages) : undefined}
                min={1}
                max={comments.pages ?? undefined}
                step={1}
                defaultValue={1}
                required
                w="11rem"
              />
            )}
            <Group>
              <Button type="submit">{t.comment}</Button>
            </Group>
          </Stack>
        </Form>
      )}

      <Paper withBorder p="md">
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={3}>{ru.review.approval.title}</Title>
            <Text size="sm">
              {t.overall}: <b>{ru.review.approval.status[approval?.overall ?? "pending"]}</b>
            </Text>
          </Group>
          <Text size="sm" data-testid="guest-decision">
            {t.yourDecision}: {ru.review.approval.status[approval?.status ?? "pending"]}
          </Text>
          {errorFor("decide")}
          {canSpeak && (
            <Group>
              {(
                [
                  ["approved", t.approve],
                  ["changes_requested", t.requestChanges],
                  ["rejected", t.reject],
                ] as const
              ).map(([status, label]) => (
                <Form method="post" key={status}>
                  <input type="hidden" name="intent" value="decide" />
                  <input type="hidden" name="status" value={status} />
                  <Button
                    type="submit"
                    variant={status === "approved" ? "filled" : "light"}
                    color={status === "rejected" ? "red" : undefined}
                  >
                    {label}
                  </Button>
                </Form>
              ))}
            </Group>
          )}
        </Stack>
      </Paper>

      <Stack gap="sm">
        <Title order={3}>{ru.review.title}</Title>
        {comments.items.length === 0 && <Text c="dimmed">{t.none}</Text>}
        {comments.items.map((c) => (
          <Paper withBorder p="sm" key={c.comment_id} data-testid="guest-comment">
            <CommentLine c={c} onPage={info.play && paged ? pdf.open : null} />
            {c.replies.map((r) => (
              <div key={r.comment_id} style={{ marginLeft: 24, marginTop: 8 }}>
                <CommentLine c={r} />
              </div>
            ))}
            {canSpeak && (
              <Form method="post" style={{ marginTop: 8 }}>
                <input type="hidden" name="intent" value="comment" />
                <input type="hidden" name="parent_id" value={c.comment_id} />
                <Group gap="xs" align="end">
                  <TextInput name="body" aria-label={t.replyText} placeholder={t.replyText} required style={{ flex: 1 }} />
                  <Button type="submit" variant="light" size="xs">
                    {t.reply}
                  </Button>
                </Group>
              </Form>
            )}
          </Paper>
        ))}
      </Stack>
    </Stack>
  );
}

function CommentLine({ c, onPage = null }: { c: Omit<CommentOut, "replies">; onPage?: ((page: number) => void) | null }) {
  return (
    <Stack gap={2}>
      <Group gap="xs">
        <Text size="sm" fw={600}>
          {c.author.name ?? ru.review.unknownAuthor}
        </Text>
        {c.author.guest && (
          <Badge size="xs" variant="light">
            {t.guestBadge}
          </Badge>
        )}
        {c.at && (
          <Text size="xs" c="dimmed" ff="monospace">
            {c.at.timecode}
          </Text>
        )}
        {c.page !== null && onPage ? (
          <Anchor component="button" type="button" size="xs" onClick={() => onPage(c.page!)} data-testid="guest-page">
            {ru.review.page.shown(c.page)}
          </Anchor>
        ) : (
          c.page !== null && (
            <Text size="xs" c="dimmed" data-testid="guest-page">
              {ru.review.page.shown(c.page)}
            </Text>
          )
        )}
      </Group>
      <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
        {c.body}
      </Text>
    </Stack>
  );
}

/**
 * The loader's comments and approval, kept up to date by the live room (the link's ticket: its version, never an
 * internal comment). A new answer of the loader (after a form, or the reconnect's reload) replaces what the room
 * brought, as the viewer's panel reloads its lists.
 */
function useGuestLive(
  info: GuestInfo,
  loaded: CommentsOut,
  firstTicket: GuestLiveTicket | null,
  player: React.RefObject<HTMLVideoElement | null>,
) {
  const revalidator = useRevalidator();
  const [live, setLive] = useState({ from: loaded, info, comments: loaded, approval: info.approval as GuestApproval | null });
  if (live.from !== loaded || live.info !== info) setLive({ from: loaded, info, comments: loaded, approval: info.approval });
  const watchers = useLiveRoom<GuestApproval>({
    // The ticket carries the guest's name: once it is given, a new connection shows it to the others.
    room: `${info.link_id}\n${info.guest?.name ?? ""}`,
    firstTicket,
    ticket: async () => {
      const r = await fetch(`/api/review/guest/${info.link_id}/live-ticket`, { method: "POST", credentials: "same-origin" });
      if (!r.ok) throw new Error(`live ticket: ${r.status}`);
      return (await r.json()) as GuestLiveTicket;
    },
    media: player,
    rate: info.rate,
    onMessage: (m) => {
      if (m.version !== info.version) return;
      if (m.type === "approval.changed") setLive((l) => ({ ...l, approval: m.approval }));
      // A guest who opened the link before its proxy was made gets the player once it is.
      else if (m.type === "media.ready") {
        if (!info.play) revalidator.revalidate();
      } else setLive((l) => ({ ...l, comments: applyComment(l.comments, m) }));
    },
    onReconnect: () => revalidator.revalidate(),
  });
  return { comments: live.comments, approval: live.approval, watchers };
}
