import { useEffect, useRef } from "react";
import { ru } from "../../i18n/ru";

/**
 * The office server's editor in a frame: the host page POSTs the access token and its lifetime into the frame
 * (the token never appears in an address), as WOPI clients expect of a host page.
 */
export function OfficeFrame({ urlsrc, token, ttl }: { urlsrc: string; token: string; ttl: number }) {
  const form = useRef<HTMLFormElement | null>(null);
  useEffect(() => {
    form.current?.submit();
  }, []);
  return (
    <>
      <form ref={form} action={urlsrc} method="post" target="office-frame" style={{ display: "none" }}>
        <input type="hidden" name="access_token" value={token} readOnly />
        <input type="hidden" name="access_token_ttl" value={String(ttl)} readOnly />
      </form>
      <iframe
        name="office-frame"
        title={ru.editor.frameTitle}
        style={{ flex: 1, minHeight: 0, width: "100%", border: 0 }}
        allow="clipboard-read; clipboard-write; fullscreen"
      />
    </>
  );
}
