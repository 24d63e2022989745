import { Badge, Box, Button, Checkbox, Group, SegmentedControl, Stack, Text, Textarea, Title, UnstyledButton } from "@mantine/core";
import { type ReactNode, type RefObject, useCallback, useEffect, useRef, useState } from "react";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { sessionStore } from "../../lib/session";
import { useStore } from "../../lib/store";
import { ApprovalBar } from "./ApprovalBar";
import { storedShapes } from "./drawing";
import { DrawingOverlay, DrawingTools, useDrawing, useShowing } from "./DrawingOverlay";
import { ReviewExport } from "./ReviewExport";
import { RangeControls, rangeOf, useMarks } from "./ReviewRange";
import { PageField, PageLabel, pageOf } from "./ReviewPage";
import { useShownTime, useShuttleKeys } from "./transport";
import {
  addComment,
  type CommentOut,
  type CommentsOut,
  deleteComment,
  getApproval,
  listComments,
  momentAt,
  type ReviewState,
  setResolved,
  timecodeAt,
} from "./review-api";
import { applyComment, useReviewLive } from "./review-live";
import { Watching } from "./Watching";

const t = ru.review;

type Filter = keyof typeof t.filters;
type Reply = CommentOut["replies"][number];

/** Whether a key press is typing into a form control (then C is a letter, not the shortcut). */
const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

/** What the caller may do with a comment, as the API decides it: resolve (author or update), delete (author or admin). */
interface Rights {
  me: string | null;
  isAdmin: boolean;
  canUpdate: boolean;
}
const mine = (c: Reply, r: Rights) => !!r.me && c.author.user_id === r.me;
const mayResolve = (c: Reply, r: Rights) => mine(c, r) || r.canUpdate;
const mayDelete = (c: Reply, r: Rights) => mine(c, r) || r.isAdmin;

function matches(c: CommentOut, filter: Filter, r: Rights) {
  if (filter === "open") return !c.resolved;
  if (filter === "resolved") return c.resolved;
  if (filter === "mine") return mine(c, r) || c.replies.some((x) => mine(x, r));
  return true;
}

/** One comment or reply: author, timecode (a click seeks there), text; the controls the caller's rights allow. */
function CommentBody({
  c,
  rights,
  onSeek,
  onChanged,
  children,
}: {
  c: Reply;
  rights: Rights;
  onSeek: ((c: Reply) => void) | null;
  onChanged: () => void;
  children?: ReactNode;
}) {
  const remove = async () => {
    if (!window.confirm(t.deleteConfirm)) return;
    if ((await runAction(() => deleteComment(c.comment_id))) !== undefined) onChanged();
  };
  const at = c.at;
  const text = (
    <>
      <Group gap={6} wrap="nowrap">
        <Text size="sm" fw={600} truncate>
          {c.author.name ?? t.unknownAuthor}
        </Text>
        {at && (
          <Text size="xs" c="yellow.4" ff="monospace" data-testid="review-timecode">
            {c.until ? t.range.shown(at.timecode, c.until.timecode) : at.timecode}
          </Text>
        )}
        {c.page !== null && <PageLabel page={c.page} />}
        {c.internal && (
          <Badge size="xs" color="grape" variant="light" data-testid="review-internal">
            {t.internalBadge}
          </Badge>
        )}
        {c.resolved && (
          <Badge size="xs" color="green" variant="light">
            {t.resolvedBadge}
          </Badge>
        )}
      </Group>
      <Text size="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
        {c.body}
      </Text>
    </>
  );
  return (
    <Stack gap={2}>
      {onSeek && (at || c.page !== null || c.shapes.length > 0 || c.region) ? (
        <UnstyledButton
          onClick={() => onSeek(c)}
          aria-label={at ? `${t.seek(at.timecode)}: ${c.body}` : c.page !== null ? `${t.page.open(c.page)}: ${c.body}` : c.body}
          data-testid="review-seek"
        >
          {text}
        </UnstyledButton>
      ) : (
        <Box>{text}</Box>
      )}
      <Group gap={4}>
        {children}
        {c.parent_id === null && mayResolve(c, rights) && (
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={async () => {
              if ((await runAction(() => setResolved(c.comment_id, !c.resolved))) !== undefined) onChanged();
            }}
          >
            {c.resolved ? t.reopen : t.resolve}
          </Button>
        )}
        {mayDelete(c, rights) && (
          <Button size="compact-xs" variant="subtle" color="red" onClick={remove}>
            {t.delete}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

/** A thread: the comment, its replies under it (one level), «Ответить» with its form. */
function Thread({
  c,
  assetId,
  rights,
  onSeek,
  onChanged,
}: {
  c: CommentOut;
  assetId: string;
  rights: Rights;
  onSeek: ((c: Reply) => void) | null;
  onChanged: () => void;
}) {
  const [replying, setReplying] = useState(false);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const send = async () => {
    if (!text.trim()) return;
    setBusy(true);
    const done = await runAction(() => addComment({ asset_id: assetId, body: text, parent_id: c.comment_id }));
    setBusy(false);
    if (done === undefined) return;
    setText("");
    setReplying(false);
    onChanged();
  };
  return (
    <Box
      component="li"
      data-testid="review-comment"
      data-resolved={c.resolved ? "true" : "false"}
      p={6}
      style={{ borderRadius: 4, background: "var(--mantine-color-dark-6)", opacity: c.resolved ? 0.7 : 1 }}
    >
      <CommentBody c={c} rights={rights} onSeek={onSeek} onChanged={onChanged}>
        <Button size="compact-xs" variant="subtle" onClick={() => setReplying((r) => !r)}>
          {t.reply}
        </Button>
      </CommentBody>
      {c.replies.length > 0 && (
        <Stack component="ul" aria-label={t.replies(c.replies.length)} gap={4} m={0} mt={4} pl="sm" style={{ listStyle: "none" }}>
          {c.replies.map((r) => (
            <Box
              component="li"
              key={r.comment_id}
              data-testid="review-reply"
              style={{ borderLeft: "2px solid var(--mantine-color-dark-4)" }}
              pl={6}
            >
              <CommentBody c={r} rights={rights} onSeek={onSeek} onChanged={onChanged} />
            </Box>
          ))}
        </Stack>
      )}
      {replying && (
        <Stack gap={4} mt={4}>
          <Textarea
            size="xs"
            autosize
            minRows={1}
            aria-label={t.replyText}
            value={text}
            autoFocus
            onChange={(e) => setText(e.currentTarget.value)}
          />
          <Group gap={4}>
            <Button size="compact-xs" loading={busy} disabled={!text.trim()} onClick={send}>
              {t.send}
            </Button>
            <Button size="compact-xs" variant="default" onClick={() => setReplying(false)}>
              {t.cancel}
            </Button>
          </Group>
        </Stack>
      )}
    </Box>
  );
}

export interface ReviewPanelProps {
  assetId: string;
  version: number;
  /** The video or audio element: comments are made at its current frame and a click seeks it; null for images and PDF. */
  media: RefObject<HTMLMediaElement | null> | null;
  /** update on the asset: resolve anyone's comment, decide on approval without being asked. */
  canUpdate: boolean;
  /** The caller's rights on the asset (asset_access): who may ask for approval, and whom. */
  access?: string[];
  /** The comments and approval the screen's loader read; the panel reads them again only after its own changes. */
  initial: ReviewState;
  /** The video or image element drawings go over (null: nothing to draw on, as audio or PDF). */
  drawOn?: RefObject<HTMLElement | null> | null;
  /** The file's name, for the names of exported files. */
  name?: string;
  /** A PDF: comments go to a page («Страница»). */
  paged?: boolean;
  /** Opens the PDF shown at a page (a click on a comment on one); null when no PDF is shown. */
  onPage?: ((page: number) => void) | null;
  /** The version got a new rendition (a proxy, a preview), as the room tells it. */
  onRendition?: () => void;
}

/**
 * The version's review beside the player or the picture: the approval bar, «Комментарий» at the current frame
 * (key C; "," and "." step frames), the comments in the API's order with replies, resolve and delete as the caller's rights allow,
 * a filter, and the timed comments as markers on a bar of the clip's length.
 */
export function ReviewPanel({
  assetId,
  version,
  media,
  canUpdate,
  access,
  initial,
  drawOn = null,
  name = "",
  paged = false,
  onPage = null,
  onRendition,
}: ReviewPanelProps) {
  const user = useStore(sessionStore).user;
  const rights: Rights = { me: user?.id ?? null, isAdmin: !!user?.is_admin, canUpdate };
  const [data, setData] = useState<CommentsOut | null>(initial.comments);
  const [approval, setApproval] = useState(initial.approval);
  const [filter, setFilter] = useState<Filter>("all");
  const [draft, setDraft] = useState("");
  const [busy, setBusy] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const box = useRef<HTMLTextAreaElement>(null);

  // After a change of its own (a comment, reply, resolve, delete) the panel reads the list again.
  const reload = useCallback(async () => {
    try {
      setData(await listComments(assetId, version));
    } catch (error) {
      console.error(error);
    }
  }, [assetId, version]);

  // The playhead and the clip's length, from the element's own events (nothing polls).
  useEffect(() => {
    const el = media?.current;
    if (!el) return;
    const update = () => {
      setTime(el.currentTime);
      setDuration(Number.isFinite(el.duration) ? el.duration : 0);
    };
    update();
    const kinds = ["timeupdate", "seeked", "loadedmetadata", "durationchange"] as const;
    for (const k of kinds) el.addEventListener(k, update);
    return () => {
      for (const k of kinds) el.removeEventListener(k, update);
    };
  }, [media]);

  const rate = data?.rate ?? null;
  // The live room: others' comments and decisions appear as they are made; after a drop, the lists are read again.
  const watchers = useReviewLive({
    assetId,
    firstTicket: initial.ticket,
    media,
    rate,
    onMessage: (m) => {
      if (m.version !== version) return;
      if (m.type === "approval.changed") setApproval(m.approval);
      else if (m.type === "media.ready") onRendition?.();
      else setData((d) => d && applyComment(d, m));
    },
    onReconnect: () => {
      void reload();
      getApproval(assetId, version).then(setApproval, console.error);
    },
  });
  // Drawing, J/K/L, the shown frame, I/O marks and the comment shown over the frame: docs/decisions/061, "Drawing and keys".
  const drawing = useDrawing();
  const shownTime = useShownTime(media);
  useShuttleKeys(media, rate);
  const range = useMarks(media, shownTime);
  const [showing, setShowing] = useShowing<Reply>(media);
  const [internal, setInternal] = useState(false);
  // A PDF's comment goes to the page in «Страница»: the one last opened from a comment, else 1.
  const [pageValue, setPageValue] = useState<number | string>(1);
  const pages = data?.pages ?? null;
  const page = paged ? pageOf(pageValue, pages) : null;
  // Keys on their physical places (the same on a Russian layout), unless typing: C puts the cursor in the comment
  // box; "," and "." step one frame back and forward at the version's rate, paused, onto the frame's start.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (typing(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
      const el = media?.current;
      if (event.code === "KeyC") box.current?.focus();
      else if ((event.code === "Comma" || event.code === "Period") && el && rate) {
        el.pause();
        const frame = (momentAt(el.currentTime, rate).frame ?? 0) + (event.code === "Period" ? 1 : -1);
        el.currentTime = Math.max(0, (frame * rate.fps_den) / rate.fps_num);
      } else return;
      event.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [media, rate]);

  const seek = media
    ? (seconds: number) => {
        const el = media.current;
        if (!el) return;
        el.pause();
        el.currentTime = seconds;
      }
    : null;
  // A click on a comment seeks to it and shows its drawing over the frame until the player plays.
  const show = (c: Reply) => {
    if (c.at) seek?.(c.at.seconds);
    if (paged && c.page !== null) {
      setPageValue(c.page);
      onPage?.(c.page);
    }
    drawing.setTool(null);
    setShowing(c);
  };

  const timed = !!media;
  const submit = async () => {
    const body = draft.trim();
    if (!body || (paged && page === null)) return;
    const el = media?.current;
    setBusy(true);
    const shapes = drawing.shapes.length > 0 ? { shapes: drawing.shapes } : {};
    const done = await runAction(() =>
      addComment({
        asset_id: assetId,
        version,
        body,
        internal,
        ...(page !== null ? { page } : {}),
        ...shapes,
        ...(timed && el ? rangeOf(range.marks, shownTime(), rate) : {}),
      }),
    );
    setBusy(false);
    if (done === undefined) return;
    setDraft("");
    drawing.clear();
    drawing.setTool(null);
    range.clear();
    await reload();
  };

  const items = data?.items ?? [];
  const shown = items.filter((c) => matches(c, filter, rights));
  const playhead = timed ? timecodeAt(time, rate) : null;
  const pct = (s: number) => `${duration > 0 ? Math.min(100, (s / duration) * 100) : 0}%`;

  return (
    <Stack gap={6} component="section" aria-label={t.title} style={{ minHeight: 0 }}>
      <ApprovalBar
        assetId={assetId}
        version={version}
        canUpdate={canUpdate}
        access={access}
        me={rights.me}
        round={approval}
        onRound={setApproval}
      />
      <Watching watchers={watchers} me={rights.me} rate={rate} />
      <Title order={5}>{t.title}</Title>
      {timed && duration > 0 && (
        <Box pos="relative" h={10} bg="dark.6" style={{ borderRadius: 3 }} role="group" aria-label={t.markers} data-testid="review-markers">
          {items
            .filter((c) => c.at)
            .map((c) => (
              <UnstyledButton
                key={c.comment_id}
                aria-label={t.seek(c.at!.timecode)}
                onClick={() => seek?.(c.at!.seconds)}
                pos="absolute"
                top={0}
                h={10}
                w={4}
                style={{
                  left: `calc(${pct(c.at!.seconds)} - 2px)`,
                  // A range runs to its end (at least the marker's own width).
                  ...(c.until ? { width: `max(4px, calc(${pct(c.until.seconds)} - ${pct(c.at!.seconds)} + 4px))` } : {}),
                  background: c.resolved ? "var(--mantine-color-green-6)" : "var(--mantine-color-yellow-5)",
                  borderRadius: 2,
                }}
              />
            ))}
          <Box pos="absolute" top={0} h={10} w={1} bg="gray.3" style={{ left: pct(time), pointerEvents: "none" }} />
        </Box>
      )}
      <Stack gap={4}>
        <Textarea
          ref={box}
          size="xs"
          autosize
          minRows={2}
          maxRows={6}
          aria-label={t.commentText}
          placeholder={timed ? t.placeholderTimed : paged ? t.page.placeholder : t.placeholder}
          value={draft}
          onChange={(e) => setDraft(e.currentTarget.value)}
          // Typing a note about a frame holds the player on that frame.
          onFocus={() => media?.current?.pause()}
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) void submit();
          }}
        />
        {paged && <PageField value={pageValue} onChange={setPageValue} pages={pages} />}
        <Group gap="xs">
          <Button size="xs" loading={busy} disabled={!draft.trim() || (paged && page === null)} onClick={submit}>
            {t.comment}
          </Button>
          {playhead && (
            <Text size="xs" c="dimmed" ff="monospace" data-testid="review-playhead">
              {t.at(playhead)}
            </Text>
          )}
        </Group>
        {timed && (
          <Text size="xs" c="dimmed">
            {t.keysHint}; {t.keysHintMore}
          </Text>
        )}
        {timed && <RangeControls range={range} rate={rate} />}
        {drawOn && (
          <DrawingTools
            drawing={drawing}
            onStart={() => {
              media?.current?.pause();
              setShowing(null);
            }}
          />
        )}
        <Checkbox size="xs" label={t.internal} checked={internal} onChange={(e) => setInternal(e.currentTarget.checked)} />
      </Stack>
      <SegmentedControl
        size="xs"
        aria-label={t.filter}
        value={filter}
        onChange={(v) => setFilter(v as Filter)}
        data={(Object.keys(t.filters) as Filter[]).map((value) => ({ value, label: t.filters[value] }))}
      />
      {data && items.length === 0 ? (
        <Text size="xs" c="dimmed">
          {t.none}
        </Text>
      ) : data && shown.length === 0 ? (
        <Text size="xs" c="dimmed">
          {t.noneFiltered}
        </Text>
      ) : (
        <Stack component="ul" aria-label={t.list} gap={6} m={0} p={0} style={{ listStyle: "none", overflowY: "auto", minHeight: 0 }}>
          {shown.map((c) => (
            <Thread
              key={c.comment_id}
              c={c}
              assetId={assetId}
              rights={rights}
              onSeek={media || drawOn || paged ? show : null}
              onChanged={reload}
            />
          ))}
        </Stack>
      )}
      {data && items.length > 0 && <ReviewExport assetId={assetId} version={version} name={name} rate={rate} />}
      <DrawingOverlay
        target={drawOn}
        shapes={showing ? storedShapes(showing.shapes) : drawing.shapes}
        region={showing?.region ?? null}
        tool={showing ? null : drawing.tool}
        color={drawing.color}
        text={drawing.text}
        onAdd={drawing.add}
      />
    </Stack>
  );
}
