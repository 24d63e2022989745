/** Tech fields from ffprobe's JSON: the names the asset info screen shows (decision 011). */
const rate = (r) => {
  if (!r || r === "0/0") return null;
  const [a, b] = r.split("/").map(Number);
  return b ? Math.round((a / b) * 1000) / 1000 : a;
};
/** A rate as ffprobe gives it, kept exact when it is a real one ("0/0" means unknown). */
const exact = (r) => (typeof r === "string" && /^[1-9]\d*\/[1-9]\d*$/.test(r) ? r : null);
const num = (v) => (v === undefined || v === null || v === "N/A" || Number.isNaN(Number(v)) ? null : Number(v));

export function techFromProbe(p) {
  const v = p.streams?.find((s) => s.codec_type === "video" && !s.disposition?.attached_pic);
  const a = p.streams?.find((s) => s.codec_type === "audio");
  const f = p.format ?? {};
  const fields = {
    duration: num(f.duration) ?? num(v?.duration) ?? num(a?.duration),
    container: f.format_name ?? null,
    container_name: f.format_long_name ?? null,
    bit_rate: num(f.bit_rate),
    video_codec: v?.codec_name ?? null,
    video_profile: v?.profile ?? null,
    width: v?.width ?? null,
    height: v?.height ?? null,
    resolution: v ? `${v.width}x${v.height}` : null,
    frame_rate: rate(v?.avg_frame_rate) ?? rate(v?.r_frame_rate),
    // The exact fraction ("30000/1001"): review comments count frames at it (shared/review/timecode.ts).
    r_frame_rate: exact(v?.r_frame_rate),
    pix_fmt: v?.pix_fmt ?? null,
    video_bit_rate: num(v?.bit_rate),
    audio_codec: a?.codec_name ?? null,
    audio_channels: a?.channels ?? null,
    audio_sample_rate: num(a?.sample_rate),
    audio_bit_rate: num(a?.bit_rate),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, val]) => val !== null && val !== undefined));
}
