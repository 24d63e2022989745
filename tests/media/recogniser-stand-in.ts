import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for an OpenAI-compatible speech endpoint (TRANSCRIBE_URL) on 127.0.0.1, for the media tests' `npm start`:
 * POST /v1/audio/transcriptions answers every piece in the verbose_json shape whisper-1 answers with (segments and
 * words); GET /received lists what each piece arrived as (form fields, sample rate, channels), for the tests to read.
 */
export const SPOKEN = "Кошки гуляют по крыше.";

export interface ReceivedPiece {
  path: string;
  fields: Record<string, string[]>;
  rate: number;
  channels: number;
  seconds: number;
}

export async function startRecogniserStandIn(): Promise<{ url: string; server: Server }> {
  const received: ReceivedPiece[] = [];
  const server = createServer(async (req, res) => {
    res.setHeader("Content-Type", "application/json");
    if (req.method === "GET" && req.url === "/received") {
      res.end(JSON.stringify(received));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const form = await new Response(Buffer.concat(chunks), { headers: { "Content-Type": req.headers["content-type"] ?? "" } }).formData();
    const fields: Record<string, string[]> = {};
    for (const [k, v] of form.entries()) if (typeof v === "string") (fields[k] ??= []).push(v);
    const wav = Buffer.from(await (form.get("file") as Blob).arrayBuffer());
    const rate = wav.readUInt32LE(24);
    const channels = wav.readUInt16LE(22);
    const seconds = wav.readUInt32LE(40) / (rate * 2 * channels);
    received.push({ path: req.url ?? "", fields, rate, channels, seconds });
    res.end(
      JSON.stringify({
        task: "transcribe",
        language: "russian",
        duration: seconds,
        text: ` ${SPOKEN}`,
        segments: [
          {
            id: 0,
            seek: 0,
            start: 0.5,
            end: 2.5,
            text: ` ${SPOKEN}`,
            tokens: [50364, 1000],
            temperature: 0,
            avg_logprob: -0.2,
            compression_ratio: 0.8,
            no_speech_prob: 0.01,
          },
        ],
        words: SPOKEN.split(" ").map((word, i) => ({ word, start: 0.5 + i * 0.5, end: 0.9 + i * 0.5 })),
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
