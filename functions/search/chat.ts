import { configOf } from "../lib/config";
import type { Env } from "../lib/env";

/**
 * Generated answers (docs/decisions/045-search.md): an OpenAI-compatible chat endpoint (CHAT_URL) is given the
 * question and numbered sources — only assets the caller can read — and told to cite one after every sentence.
 * Its text is accepted only when every sentence does cite a source it was given; anything else is discarded and
 * the answer is extractive, so nothing reaches the user that no readable asset backs.
 */

export interface Source {
  name: string;
  text: string;
}

export type Chat = (question: string, sources: Source[]) => Promise<string>;

const SOURCE_CHARS = 1500;

const instructions =
  "Ты отвечаешь на вопрос только по приведённым источникам. После каждого предложения ставь номер источника, " +
  "на котором оно основано, в квадратных скобках, например [1]. Не добавляй ничего, чего нет в источниках. " +
  "Если ответа в источниках нет, верни пустой ответ.";

export function chatFrom(env: Env): Chat | null {
  const { CHAT_URL: url, CHAT_MODEL: model } = configOf(env);
  if (!url) return null;
  const send = env.CHAT_FETCH ?? { fetch: (input: RequestInfo, init?: RequestInit) => fetch(input, init) };
  return async (question, sources) => {
    const listed = sources.map((s, i) => `[${i + 1}] ${s.name}\n${s.text.slice(0, SOURCE_CHARS)}`).join("\n\n");
    const r = await send.fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(env.CHAT_KEY ? { authorization: `Bearer ${env.CHAT_KEY}` } : {}) },
      body: JSON.stringify({
        model,
        temperature: 0,
        messages: [
          { role: "system", content: instructions },
          { role: "user", content: `Источники:\n\n${listed}\n\nВопрос: ${question}` },
        ],
      }),
    });
    if (!r.ok) throw new Error(`chat endpoint answered ${r.status}`);
    const body = (await r.json()) as { choices?: { message?: { content?: string } }[] };
    return body.choices?.[0]?.message?.content?.trim() ?? "";
  };
}

/**
 * A generated text's sentences with the sources each cites, or null when any sentence cites nothing or a number
 * that was not given.
 */
export function citedSentences(text: string, sources: number): { text: string; cites: number[] }[] | null {
  const sentences =
    text
      .match(/[^.!?…]+(?:[.!?…]+|$)(?:\s*\[\d+\](?:\s*\[\d+\])*)?[.!?…]?/gu)
      ?.map((s) => s.trim())
      .filter(Boolean) ?? [];
  if (sentences.length === 0) return null;
  const out = [];
  for (const s of sentences) {
    const cites = [...s.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    if (cites.length === 0 || cites.some((n) => n < 1 || n > sources)) return null;
    out.push({ text: s.replace(/\s*\[\d+\]/g, "").trim(), cites });
  }
  return out;
}
