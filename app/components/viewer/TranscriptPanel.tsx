import { Badge, Box, Button, Group, Stack, Switch, Text, Textarea, TextInput, Title, UnstyledButton } from "@mantine/core";
import { memo, type ReactNode, type RefObject, useEffect, useMemo, useRef, useState } from "react";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { ApiError } from "../../lib/api";
import { showError, showInfo } from "../../lib/notify";
import { secondsToText } from "../metadata/time-text";
import {
  copyTranscript,
  recognize,
  type Segment,
  saveSegments,
  type TranscriptOut,
  type TranscriptState,
  trackLink,
} from "./transcript-api";

const t = ru.transcripts;

/** Case and ё do not matter when searching a transcript. */
const fold = (s: string) => s.toLocaleLowerCase("ru").replaceAll("ё", "е");

/** The text with each occurrence of `query` (already folded) marked; folding keeps the length, so indexes carry over. */
function marked(text: string, query: string): ReactNode {
  if (!query) return text;
  const folded = fold(text);
  const parts: ReactNode[] = [];
  let from = 0;
  for (let at = folded.indexOf(query); at >= 0; at = folded.indexOf(query, at + query.length)) {
    parts.push(text.slice(from, at), <mark key={at}>{text.slice(at, at + query.length)}</mark>);
    from = at + query.length;
  }
  parts.push(text.slice(from));
  return parts;
}

/** The segment under the playhead: the last one that has started and not ended (cues may overlap). */
function activeAt(segments: Segment[], time: number): number {
  for (let i = segments.length - 1; i >= 0; i--) {
    const s = segments[i]!;
    if (s.start <= time && time < Math.max(s.end, s.start + 0.001)) return i;
  }
  return -1;
}

interface RowProps {
  index: number;
  segment: Segment;
  active: boolean;
  query: string;
  canEdit: boolean;
  onSeek: (at: number) => void;
  onEdit: (index: number) => void;
}

/** One segment: its start and text (a click seeks there) and, with update, «Исправить». Memoised: playback re-renders only the rows whose highlight changes. */
const Row = memo(function Row({ index, segment, active, query, canEdit, onSeek, onEdit }: RowProps) {
  const ref = useRef<HTMLDivElement>(null);
  // The current segment is kept in view inside the list; the page itself does not move under the user.
  useEffect(() => {
    const row = ref.current;
    const list = row?.offsetParent as HTMLElement | null;
    if (!active || !row || !list) return;
    if (row.offsetTop < list.scrollTop || row.offsetTop + row.offsetHeight > list.scrollTop + list.clientHeight)
      list.scrollTop = Math.max(0, row.offsetTop - list.clientHeight / 3);
  }, [active]);
  return (
    <Group
      ref={ref}
      wrap="nowrap"
      align="flex-start"
      gap={4}
      data-testid="transcript-segment"
      aria-current={active ? "true" : undefined}
      px={4}
      py={2}
      // Off-screen rows are skipped by layout and paint, so a transcript of thousands of cues scrolls smoothly.
      style={{
        borderRadius: 4,
        background: active ? "var(--mantine-color-blue-light)" : undefined,
        contentVisibility: "auto",
        containIntrinsicSize: "auto 2.5rem",
      }}
    >
      <UnstyledButton onClick={() => onSeek(segment.start)} style={{ flex: 1, minWidth: 0 }} title={t.seek(secondsToText(segment.start))}>
        <Text span size="xs" c="dimmed" ff="monospace" mr={6}>
          {secondsToText(segment.start)}
        </Text>
        <Text span size="sm" style={{ whiteSpace: "pre-wrap" }}>
          {segment.speaker ? `${segment.speaker}: ` : ""}
          {marked(segment.text, query)}
        </Text>
      </UnstyledButton>
      {canEdit && (
        <Button size="compact-xs" variant="subtle" onClick={() => onEdit(index)} aria-label={`${t.edit} ${secondsToText(segment.start)}`}>
          {t.edit}
        </Button>
      )}
    </Group>
  );
});

/** The inline editor of one segment's text; saving replaces the transcript's segments (PATCH, source `edit`). */
function EditRow({ segment, onSave, onCancel }: { segment: Segment; onSave: (text: string) => Promise<void>; onCancel: () => void }) {
  const [text, setText] = useState(segment.text);
  const [busy, setBusy] = useState(false);
  return (
    <Stack gap={4} p={4} data-testid="transcript-edit">
      <Text size="xs" c="dimmed" ff="monospace">
        {secondsToText(segment.start)}
      </Text>
      <Textarea
        label={t.editText}
        autosize
        minRows={2}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        data-autofocus
        autoFocus
      />
      <Group gap="xs">
        <Button
          size="xs"
          loading={busy}
          onClick={async () => {
            setBusy(true);
            await onSave(text);
            setBusy(false);
          }}
        >
          {t.save}
        </Button>
        <Button size="xs" variant="default" onClick={onCancel}>
          {t.cancel}
        </Button>
      </Group>
    </Stack>
  );
}

export interface TranscriptPanelProps {
  assetId: string;
  version: number;
  state: TranscriptState;
  /** update on the asset: edit, copy, recognise. */
  canEdit: boolean;
  /** A video shows the transcript as subtitles too (the toggle); audio only has the panel. */
  video: boolean;
  media: RefObject<HTMLMediaElement | null>;
  onChange: (state: TranscriptState) => void;
}

/**
 * The shown version's transcript beside the player: segments follow playback (the current one highlighted),
 * a click seeks there, text edits are saved, search narrows the list. Without a transcript: «Перенести
 * расшифровку» from the previous version when it has one, and «Распознать».
 */
export function TranscriptPanel({ assetId, version, state, canEdit, video, media, onChange }: TranscriptPanelProps) {
  const { transcript } = state;
  const [time, setTime] = useState(0);
  const [query, setQuery] = useState("");
  const [editing, setEditing] = useState<number | null>(null);
  const [subtitles, setSubtitles] = useState(true);
  const [notConfigured, setNotConfigured] = useState(false);
  const [busy, setBusy] = useState(false);

  // The playhead, from the element's own events (nothing polls).
  useEffect(() => {
    const el = media.current;
    if (!el) return;
    const update = () => setTime(el.currentTime);
    update();
    el.addEventListener("timeupdate", update);
    el.addEventListener("seeked", update);
    return () => {
      el.removeEventListener("timeupdate", update);
      el.removeEventListener("seeked", update);
    };
  }, [media]);

  // «Субтитры»: the video's subtitle track shows or stays hidden (hidden still loads it, so turning it on is instant).
  useEffect(() => {
    const el = media.current;
    if (!video || !el) return;
    const apply = () => {
      for (const track of Array.from(el.textTracks)) if (track.kind === "subtitles") track.mode = subtitles ? "showing" : "hidden";
    };
    apply();
    el.textTracks.addEventListener("addtrack", apply);
    return () => el.textTracks.removeEventListener("addtrack", apply);
  }, [media, video, subtitles]);

  const segments = transcript?.segments ?? [];
  const active = activeAt(segments, time);
  const folded = fold(query.trim());
  const shown = useMemo(
    () => segments.map((s, i) => ({ s, i })).filter(({ s }) => !folded || fold(`${s.speaker ?? ""} ${s.text}`).includes(folded)),
    [segments, folded],
  );

  const seek = useMemo(
    () => (at: number) => {
      const el = media.current;
      if (el) el.currentTime = at;
    },
    [media],
  );
  const edit = useMemo(() => (i: number) => setEditing(i), []);

  /** A changed transcript: a fresh track link, so the subtitles show the new text. */
  const changed = async (next: TranscriptOut) => {
    const track = video ? await trackLink(assetId, version).catch(() => null) : null;
    onChange({ transcript: next, track, copyFrom: null });
  };

  const saveText = async (index: number, text: string) => {
    const next = segments.map((s, i) => (i === index ? { ...s, text } : s));
    const saved = await runAction(() => saveSegments(assetId, version, next));
    if (!saved) return;
    setEditing(null);
    showInfo(t.saved);
    await changed(saved);
  };

  const copy = async (from: number) => {
    setBusy(true);
    const copied = await runAction(() => copyTranscript(assetId, version, from));
    setBusy(false);
    if (!copied) return;
    showInfo(t.copied);
    await changed(copied);
  };

  const startRecognition = async () => {
    setBusy(true);
    try {
      await recognize(assetId, version);
      showInfo(t.recognizeStarted);
    } catch (error) {
      // The server says when no recogniser is configured; the button then says so and stays off.
      if (error instanceof ApiError && error.status === 503) setNotConfigured(true);
      else {
        console.error(error);
        showError(error);
      }
    } finally {
      setBusy(false);
    }
  };

  if (!transcript) {
    if (!canEdit) return null;
    return (
      <Group gap="xs" component="section" aria-label={t.title}>
        <Text size="sm" c="dimmed">
          {t.empty}
        </Text>
        {state.copyFrom !== null && (
          <Button size="xs" variant="light" loading={busy} onClick={() => copy(state.copyFrom!)} title={t.copyHint(state.copyFrom)}>
            {t.copy}
          </Button>
        )}
        <Button size="xs" variant="default" loading={busy} disabled={notConfigured} onClick={startRecognition}>
          {notConfigured ? t.notConfigured : t.recognize}
        </Button>
      </Group>
    );
  }

  return (
    <Stack gap={6} component="section" aria-label={t.title} style={{ minHeight: 0, flex: "0 1 auto", maxHeight: "40vh" }}>
      <Group gap="xs" justify="space-between" wrap="wrap">
        <Group gap="xs">
          <Title order={5}>{t.title}</Title>
          {transcript.language && <Badge variant="light">{transcript.language}</Badge>}
          <Badge variant="outline" data-testid="transcript-source">
            {t.source[transcript.source] ?? transcript.source}
          </Badge>
        </Group>
        <Group gap="xs">
          {video && <Switch size="sm" label={t.subtitles} checked={subtitles} onChange={(e) => setSubtitles(e.currentTarget.checked)} />}
          <TextInput
            size="xs"
            type="search"
            placeholder={t.search}
            aria-label={t.search}
            value={query}
            onChange={(e) => setQuery(e.currentTarget.value)}
          />
          {folded && (
            <Text size="xs" c="dimmed" data-testid="transcript-found">
              {shown.length ? t.found(shown.length, segments.length) : t.nothingFound}
            </Text>
          )}
        </Group>
      </Group>
      <Box
        component="ul"
        aria-label={t.segments}
        m={0}
        p={0}
        style={{ listStyle: "none", overflowY: "auto", minHeight: 0, flex: 1, position: "relative" }}
      >
        {shown.map(({ s, i }) => (
          <li key={i}>
            {editing === i ? (
              <EditRow segment={s} onSave={(text) => saveText(i, text)} onCancel={() => setEditing(null)} />
            ) : (
              <Row index={i} segment={s} active={i === active} query={folded} canEdit={canEdit} onSeek={seek} onEdit={edit} />
            )}
          </li>
        ))}
      </Box>
    </Stack>
  );
}
