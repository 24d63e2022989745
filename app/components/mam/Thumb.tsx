import { isDocumentMime } from "../../../shared/lib/mime";
import { useSignedImage } from "../../lib/use-signed-image";
import { Icon } from "../icons";

/** A thumbnail: the preview image when one exists, else an icon for the kind of file (or a folder). */

type Kind = "folder" | "image" | "video" | "audio" | "pdf" | "document" | "text" | "file";

export function kindOf(type: "asset" | "group", mime: string | null): Kind {
  if (type === "group") return "folder";
  const m = mime ?? "";
  if (m.startsWith("image/")) return "image";
  if (m.startsWith("video/")) return "video";
  if (m.startsWith("audio/")) return "audio";
  if (m === "application/pdf") return "pdf";
  if (isDocumentMime(m)) return "document";
  if (m.startsWith("text/") || m === "application/json") return "text";
  return "file";
}

const paths: Record<Kind, JSX.Element> = {
  folder: <path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />,
  image: (
    <>
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <circle cx="9" cy="10" r="2" />
      <path d="M21 17l-5-5-9 8" />
    </>
  ),
  video: (
    <>
      <rect x="3" y="5" width="14" height="14" rx="2" />
      <path d="M17 10l4-2v8l-4-2" />
    </>
  ),
  audio: (
    <>
      <path d="M9 18V6l10-2v12" />
      <circle cx="6" cy="18" r="3" />
      <circle cx="16" cy="16" r="3" />
    </>
  ),
  pdf: (
    <>
      <path d="M6 3h9l4 4v14H6z" />
      <path d="M15 3v4h4" />
      <path d="M9 14h6M9 17h4" />
    </>
  ),
  document: (
    <>
      <path d="M6 3h9l4 4v14H6z" />
      <path d="M15 3v4h4" />
      <path d="M9 11h6M9 14h6M9 17h3" />
    </>
  ),
  text: (
    <>
      <path d="M6 3h9l4 4v14H6z" />
      <path d="M9 10h6M9 13h6M9 16h6" />
    </>
  ),
  file: (
    <>
      <path d="M6 3h9l4 4v14H6z" />
      <path d="M15 3v4h4" />
    </>
  ),
};

const colors: Record<Kind, string> = {
  folder: "var(--mantine-color-yellow-5)",
  image: "var(--mantine-color-teal-5)",
  video: "var(--mantine-color-grape-5)",
  audio: "var(--mantine-color-orange-5)",
  pdf: "var(--mantine-color-red-5)",
  document: "var(--mantine-color-indigo-4)",
  text: "var(--mantine-color-blue-4)",
  file: "var(--mantine-color-gray-5)",
};

export function KindIcon({ kind, size }: { kind: Kind; size: number }) {
  return (
    // Square line ends (the SVG default): the file shapes have corners, not the shell icons' round caps.
    <Icon size={size} stroke={colors[kind]} strokeWidth={1.6} strokeLinecap="butt" data-kind={kind}>
      {paths[kind]}
    </Icon>
  );
}

export function Thumb({
  type,
  mime,
  preview,
  size,
}: {
  type: "asset" | "group";
  mime: string | null;
  preview?: string | null;
  size: number;
}) {
  const image = useSignedImage();
  const box = { width: size, height: size, display: "flex", alignItems: "center", justifyContent: "center", flexShrink: 0 } as const;
  if (preview && !image.broken) {
    return (
      <div style={box}>
        <img
          key={image.attempt}
          ref={image.ref}
          src={preview}
          alt=""
          loading="lazy"
          decoding="async"
          onError={image.onError}
          style={{ maxWidth: size, maxHeight: size, objectFit: "contain", borderRadius: 4 }}
        />
      </div>
    );
  }
  return (
    <div style={box}>
      <KindIcon kind={kindOf(type, mime)} size={Math.round(size * 0.7)} />
    </div>
  );
}
