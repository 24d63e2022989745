import exifReader from "exif-reader";
import sharp from "sharp";

/** EXIF (exif-reader), IPTC (IIM records, parsed here) and XMP (a few well-known properties) of an image, via sharp. */

const iptcNames = {
  5: "iptc_object_name",
  25: "iptc_keywords",
  80: "iptc_byline",
  90: "iptc_city",
  101: "iptc_country",
  105: "iptc_headline",
  110: "iptc_credit",
  116: "iptc_copyright",
  120: "iptc_caption",
};

/** IPTC-IIM: records 0x1C, record 2 (application), dataset, 2-byte length, value. */
export function parseIptc(buf) {
  const out = {};
  for (let i = 0; i + 5 <= buf.length; ) {
    if (buf[i] !== 0x1c) {
      i++;
      continue;
    }
    const rec = buf[i + 1];
    const ds = buf[i + 2];
    const len = buf.readUInt16BE(i + 3);
    const value = buf.subarray(i + 5, i + 5 + len).toString("utf8");
    const name = rec === 2 && iptcNames[ds];
    if (name) out[name] = name === "iptc_keywords" ? [...(out[name] ?? []), value] : value;
    i += 5 + len;
  }
  return out;
}

const xmpProps = {
  "dc:title": "xmp_title",
  "dc:creator": "xmp_creator",
  "dc:description": "xmp_description",
  "dc:rights": "xmp_rights",
  "xmp:CreatorTool": "xmp_creator_tool",
  "xmp:Rating": "xmp_rating",
  "photoshop:Headline": "xmp_headline",
};

export function parseXmp(text) {
  const out = {};
  for (const [prop, name] of Object.entries(xmpProps)) {
    const attr = new RegExp(`${prop}="([^"]*)"`).exec(text);
    const elem = new RegExp(`<${prop}>([\\s\\S]*?)</${prop}>`).exec(text);
    const raw = attr?.[1] ?? elem?.[1];
    if (raw === undefined) continue;
    const items = [...raw.matchAll(/<rdf:li[^>]*>([\s\S]*?)<\/rdf:li>/g)].map((m) => m[1].trim());
    out[name] = items.length ? items.join("; ") : raw.replace(/<[^>]+>/g, "").trim();
  }
  return out;
}

const pick = (obj, keys, prefix) => {
  const out = {};
  for (const k of keys) {
    let v = obj?.[k];
    if (v === undefined || v === null) continue;
    if (v instanceof Date) v = v.toISOString();
    if (Buffer.isBuffer(v)) continue;
    if (Array.isArray(v) && v.length > 8) continue;
    out[`${prefix}${k.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase()}`] = v;
  }
  return out;
};

export async function imageTech(file) {
  const m = await sharp(file).metadata();
  /** @type {Record<string, unknown>} */
  const tech = {
    width: m.width,
    height: m.height,
    resolution: `${m.width}x${m.height}`,
    container: m.format,
    color_space: m.space,
    channels: m.channels,
    has_alpha: m.hasAlpha ?? false,
    ...(m.density ? { density: m.density } : {}),
    ...(m.orientation ? { orientation: m.orientation } : {}),
    ...(m.pages ? { pages: m.pages } : {}),
  };
  if (m.exif) {
    try {
      const e = exifReader(m.exif);
      Object.assign(tech, pick(e.Image, ["Make", "Model", "Software", "DateTime", "Artist", "Copyright"], "exif_"));
      Object.assign(
        tech,
        pick(e.Photo, ["DateTimeOriginal", "ExposureTime", "FNumber", "ISOSpeedRatings", "FocalLength", "LensModel"], "exif_"),
      );
      if (e.GPSInfo?.GPSLatitude) tech.exif_gps = { lat: e.GPSInfo.GPSLatitude, lon: e.GPSInfo.GPSLongitude };
    } catch (err) {
      tech.exif_error = err instanceof Error ? err.message : String(err);
    }
  }
  if (m.iptc) Object.assign(tech, parseIptc(m.iptc));
  if (m.xmp) Object.assign(tech, parseXmp(m.xmp.toString("utf8")));
  return tech;
}

/** Page count of a PDF: the largest /Count of a /Pages node (the root's), else the number of /Type /Page objects. */
export function pdfPages(buf) {
  const text = buf.toString("latin1");
  const counts = [...text.matchAll(/\/Type\s*\/Pages\b[^>]*?\/Count\s+(\d+)|\/Count\s+(\d+)[^>]*?\/Type\s*\/Pages\b/g)].map((m) =>
    Number(m[1] ?? m[2]),
  );
  if (counts.length) return Math.max(...counts);
  return (text.match(/\/Type\s*\/Page\b(?!s)/g) ?? []).length;
}
