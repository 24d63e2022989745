import { Anchor, Button, Code, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import type { Part, Ref } from "../../lib/event-text";
import { sessionStore } from "../../lib/session";
import { useStore } from "../../lib/store";

const t = ru.events;

/** The reader of the history: admins open users and the admin screens (app/lib/event-text.ts hrefOf). */
export function useEventReader() {
  const session = useStore(sessionStore);
  return { admin: Boolean(session.user?.is_admin) };
}

/** A named object: a link where the reader may open it, its name otherwise. */
export function RefText({ value }: { value: Ref }) {
  return value.href ? (
    <Anchor component={Link} to={value.href}>
      {value.text}
    </Anchor>
  ) : (
    <span>{value.text}</span>
  );
}

/** A phrase of plain words and named objects. */
export function PhraseText({ parts }: { parts: Part[] }) {
  return (
    <>
      {parts.map((part, i) =>
        typeof part === "string" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: a phrase's pieces never move
          <span key={i}>{part}</span>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above
          <RefText key={i} value={part} />
        ),
      )}
    </>
  );
}

/** The event as the API gave it, drawn only once asked for (long pages stay light). */
export function RawEvent({ event }: { event: unknown }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="compact-xs" variant="subtle" onClick={() => setOpen((v) => !v)} title={t.rawHint} aria-expanded={open}>
        {t.raw}
      </Button>
      {open && (
        <Code block style={{ whiteSpace: "pre-wrap", wordBreak: "break-all" }}>
          {JSON.stringify(event, null, 2)}
        </Code>
      )}
    </>
  );
}

/** The details cell: the phrase, then the raw event on demand. */
export function EventDetails({ parts, event }: { parts: Part[]; event: unknown }) {
  return (
    <Text size="sm" component="div">
      <PhraseText parts={parts} /> <RawEvent event={event} />
    </Text>
  );
}
