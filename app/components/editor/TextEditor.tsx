import { json } from "@codemirror/lang-json";
import { markdown } from "@codemirror/lang-markdown";
import { xml } from "@codemirror/lang-xml";
import { Compartment, EditorState, type Extension } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import { Alert, Badge, Button, Group, Text } from "@mantine/core";
import { basicSetup } from "codemirror";
import { useEffect, useRef, useState } from "react";
import { ru } from "../../i18n/ru";
import { showError, showInfo } from "../../lib/notify";
import { useLeaveWarning } from "../../lib/use-leave-warning";
import type { TextKind } from "./editable";
import type { CheckFileInfo } from "../../../shared/wopi/schemas";
import type { WopiFile } from "./wopi-client";

const t = ru.editor;

/** A lock lasts 30 minutes on the host; refreshed well before. */
const REFRESH_MS = 10 * 60_000;

const languages: Partial<Record<TextKind, () => Extension>> = { md: markdown, json, xml };

const darkTheme = EditorView.theme(
  {
    "&": { backgroundColor: "var(--mantine-color-dark-7)", color: "var(--mantine-color-dark-0)", height: "100%" },
    ".cm-content": { caretColor: "var(--mantine-color-blue-4)", fontFamily: "var(--mantine-font-family-monospace)" },
    ".cm-gutters": { backgroundColor: "var(--mantine-color-dark-8)", color: "var(--mantine-color-dark-3)", border: "none" },
    ".cm-activeLine, .cm-activeLineGutter": { backgroundColor: "rgba(255, 255, 255, 0.04)" },
    "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection": { backgroundColor: "rgba(80, 140, 255, 0.3)" },
    ".cm-scroller": { overflow: "auto" },
  },
  { dark: true },
);

type Mode = { kind: "loading" } | { kind: "edit" } | { kind: "read"; why: string };

/** The document as the route's loader read it (CheckFileInfo and GetFile); the editor takes the lock itself. */
export interface TextDoc {
  info: CheckFileInfo;
  text: string;
}

export async function loadTextDoc(file: WopiFile): Promise<TextDoc> {
  const [info, text] = await Promise.all([file.info(), file.text()]);
  return { info, text };
}

/**
 * The built-in text editor, a WOPI client of our own host: CheckFileInfo, GetFile, LOCK when the user may write
 * (a file locked by someone else opens read-only with their name), REFRESH_LOCK while open, PutFile on save
 * (a new version), UNLOCK on close or when the page goes away.
 */
export function TextEditor({ file, doc, kind, onClose }: { file: WopiFile; doc: TextDoc; kind: TextKind; onClose: () => void }) {
  const host = useRef<HTMLDivElement | null>(null);
  const view = useRef<EditorView | null>(null);
  const lockId = useRef<string | null>(null);
  const [mode, setMode] = useState<Mode>({ kind: "loading" });
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  useLeaveWarning(dirty, t.unsaved);
  // Ctrl+S inside the editor saves with this render's state.
  const saveRef = useRef<() => Promise<void>>(async () => undefined);

  useEffect(() => {
    let gone = false;
    const readOnly = new Compartment();
    (async () => {
      const { info, text } = doc;
      let next: Mode = info.UserCanWrite ? { kind: "edit" } : { kind: "read", why: t.noRight };
      if (info.UserCanWrite) {
        const id = crypto.randomUUID();
        const got = await file.lock(id);
        if (got.ok) lockId.current = id;
        else next = { kind: "read", why: got.holder ? t.lockedBy(got.holder) : t.lockedBySomeone };
      }
      if (gone) {
        if (lockId.current) await file.unlock(lockId.current);
        return;
      }
      const editable = next.kind === "edit";
      view.current = new EditorView({
        parent: host.current!,
        state: EditorState.create({
          doc: text,
          extensions: [
            basicSetup,
            darkTheme,
            languages[kind]?.() ?? [],
            EditorView.lineWrapping,
            readOnly.of([EditorState.readOnly.of(!editable), EditorView.editable.of(editable)]),
            keymap.of([
              {
                key: "Mod-s",
                preventDefault: true,
                run: () => {
                  void saveRef.current();
                  return true;
                },
              },
            ]),
            EditorView.updateListener.of((u) => {
              if (u.docChanged) setDirty(true);
            }),
          ],
        }),
      });
      setMode(next);
    })().catch((error) => {
      showError(error);
      setMode({ kind: "read", why: error instanceof Error ? error.message : String(error) });
    });

    const release = () => {
      if (lockId.current) void file.unlock(lockId.current, true);
    };
    window.addEventListener("pagehide", release);
    const timer = window.setInterval(async () => {
      if (lockId.current && !(await file.refresh(lockId.current).catch(() => false))) {
        lockId.current = null;
        setMode({ kind: "read", why: t.lockLost });
      }
    }, REFRESH_MS);
    return () => {
      gone = true;
      window.clearInterval(timer);
      window.removeEventListener("pagehide", release);
      release();
      lockId.current = null;
      view.current?.destroy();
      view.current = null;
    };
  }, [file, doc, kind]);

  const close = async () => {
    const id = lockId.current;
    lockId.current = null;
    if (id) await file.unlock(id);
    onClose();
  };

  const save = async () => {
    if (!view.current || !lockId.current) return;
    setSaving(true);
    try {
      const version = await file.put(lockId.current, view.current.state.doc.toString());
      if (version === null) setMode({ kind: "read", why: t.lockLost });
      else {
        setDirty(false);
        showInfo(t.saved);
      }
    } catch (error) {
      showError(error);
    } finally {
      setSaving(false);
    }
  };

  saveRef.current = save;

  return (
    <>
      <Group justify="space-between" wrap="nowrap">
        {mode.kind === "read" ? (
          <Alert color="yellow" py={4} data-testid="editor-readonly" style={{ flex: 1 }}>
            <Text size="sm">{mode.why}</Text>
          </Alert>
        ) : (
          <Group gap="xs">{dirty && <Badge color="yellow">{t.unsaved}</Badge>}</Group>
        )}
        <Group gap="xs" wrap="nowrap">
          {mode.kind === "edit" && (
            <Button size="xs" onClick={save} loading={saving} disabled={!dirty}>
              {t.save}
            </Button>
          )}
          <Button size="xs" variant="default" onClick={close}>
            {t.close}
          </Button>
        </Group>
      </Group>
      {mode.kind === "loading" && <Text c="dimmed">{t.loading}</Text>}
      <div ref={host} data-testid="text-editor" style={{ flex: 1, minHeight: 0, border: "1px solid var(--mantine-color-dark-4)" }} />
    </>
  );
}
