import { describe, expect, it } from "vitest";
import { readableLine } from "../../scripts/log-format.mjs";

/** `npm start`'s readable log (scripts/log-format.mjs). */
describe("readableLine", () => {
  it("shortens a request line", () => {
    const line =
      '{"type":"request","request_id":"a41ccb78-0000","method":"GET","route":"/api/health","status":200,"duration_ms":14,"user_id":"9ad52308-7941"}';
    expect(readableLine(line)).toBe("GET /api/health → 200 in 14 ms · user 9ad52308 · req a41ccb78");
  });

  it("shortens a task line", () => {
    const line =
      '{"type":"task","time":"2026-11-26T08:00:00.000Z","task_id":"0f3a2c1e-1111","run":2,"operation":"proxy","lane":"encode","priority":0,"outcome":"done","queued_ms":5,"duration_ms":900,"worker":"w"}';
    expect(readableLine(line)).toBe("task 0f3a2c1e run 2 proxy (encode) → done in 900 ms, waited 5 ms");
  });

  it("passes other lines, and broken JSON, as they are", () => {
    expect(readableLine("transcoder listening")).toBe("transcoder listening");
    expect(readableLine('{"type": broken')).toBe('{"type": broken');
  });
});
