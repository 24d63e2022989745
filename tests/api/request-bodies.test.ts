import { describe, expect, it } from "vitest";
import { maxJsonBody } from "../../functions/lib/bodies";
import { maxProps, maxXmlBody } from "../../functions/dav/common";
import { maxXmlDepth } from "../../functions/dav/xml";
import { admin, mkGroup, uniq, VIRTUAL_ROOT } from "./fixtures";
import { adminCredentials, api } from "./helpers";
import { dav, davPath } from "./dav.helpers";

/** Request bodies are bounded (docs/decisions/025-threat-model.md, "Request bodies"): WebDAV XML and API JSON. */

const basicAdmin = { login: adminCredentials.user, password: adminCredentials.passwd };
const propfindOf = (inner: string) => `<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop>${inner}</D:prop></D:propfind>`;

describe("WebDAV XML bodies", () => {
  it("answers 400, not 500, to 20,000 nested elements, and accepts a property nested a few levels", async () => {
    const top = uniq("Тела");
    await mkGroup(VIRTUAL_ROOT, top);
    const deep = propfindOf(`${'<Z:a xmlns:Z="urn:z">'.repeat(20_000)}${"</Z:a>".repeat(20_000)}`);
    expect((await dav(davPath(top), { method: "PROPFIND", basic: basicAdmin, body: deep, headers: { Depth: "0" } })).status).toBe(400);
    const justDeepEnough = `<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><Z:tree>${"<Z:n>".repeat(maxXmlDepth - 5)}x${"</Z:n>".repeat(maxXmlDepth - 5)}</Z:tree></D:prop></D:set></D:propertyupdate>`;
    expect((await dav(davPath(top), { method: "PROPPATCH", basic: basicAdmin, body: justDeepEnough })).status).toBe(207);
    const tooDeep = justDeepEnough.replaceAll("<Z:n>", "<Z:n><Z:n>").replaceAll("</Z:n>", "</Z:n></Z:n>");
    expect((await dav(davPath(top), { method: "PROPPATCH", basic: basicAdmin, body: tooDeep })).status).toBe(400);
  });

  it("answers 413 to a PROPFIND larger than the limit (a 2 MB body)", async () => {
    const top = uniq("Тела");
    await mkGroup(VIRTUAL_ROOT, top);
    const padded = `${propfindOf("<D:displayname/>")}${" ".repeat(2 * 1024 * 1024)}`;
    expect(padded.length).toBeGreaterThan(maxXmlBody);
    const res = await dav(davPath(top), { method: "PROPFIND", basic: basicAdmin, body: padded, headers: { Depth: "0" } });
    expect(res.status).toBe(413);
    // A body just under the limit is read as before.
    const under = `${propfindOf("<D:displayname/>")}${" ".repeat(maxXmlBody - 200)}`;
    expect((await dav(davPath(top), { method: "PROPFIND", basic: basicAdmin, body: under, headers: { Depth: "0" } })).status).toBe(207);
  });

  it("answers 400 to a PROPFIND or PROPPATCH naming more properties than the limit", async () => {
    const top = uniq("Тела");
    await mkGroup(VIRTUAL_ROOT, top);
    const many = Array.from({ length: maxProps + 1 }, (_, i) => `<Z:p${i} xmlns:Z="urn:z"/>`).join("");
    expect(
      (await dav(davPath(top), { method: "PROPFIND", basic: basicAdmin, body: propfindOf(many), headers: { Depth: "0" } })).status,
    ).toBe(400);
    const sets = `<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop>${Array.from({ length: maxProps + 1 }, (_, i) => `<Z:p${i}>v</Z:p${i}>`).join("")}</D:prop></D:set></D:propertyupdate>`;
    expect((await dav(davPath(top), { method: "PROPPATCH", basic: basicAdmin, body: sets })).status).toBe(400);
    const few = Array.from({ length: 20 }, (_, i) => `<Z:p${i} xmlns:Z="urn:z"/>`).join("");
    expect(
      (await dav(davPath(top), { method: "PROPFIND", basic: basicAdmin, body: propfindOf(few), headers: { Depth: "0" } })).status,
    ).toBe(207);
  });
});

describe("API JSON bodies", () => {
  it("answers 413 past the documented size, and takes the largest CSV import the import itself allows", async () => {
    const group = await mkGroup(VIRTUAL_ROOT);
    const bearer = await admin();
    const oversized = JSON.stringify({ csv: "a".repeat(maxJsonBody), dry_run: true });
    const res = await api(`/api/fields/import-csv/${group}`, {
      method: "POST",
      bearer,
      body: oversized,
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("payload_too_large");

    // 4,999,000 characters of three UTF-8 bytes each (about 15 MB): over no limit but the import's own checks.
    const csv = `x,y\n${"漢".repeat(4_999_000)}`;
    const legit = await api(`/api/fields/import-csv/${group}`, { method: "POST", bearer, json: { csv, dry_run: true } });
    const body = (await legit.json()) as { error?: { code: string; details?: { field: string }[] } };
    expect(legit.status).toBe(400);
    expect(body.error?.code).toBe("validation");
    expect(body.error?.details?.[0]?.field).toBe("csv");
  });

  it("answers 413 to a JSON body without Content-Length once it passes the size", async () => {
    const group = await mkGroup(VIRTUAL_ROOT);
    const chunk = new TextEncoder().encode(`{"csv":"${"b".repeat(1024 * 1024 - 8)}`);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > maxJsonBody + chunk.byteLength) {
          controller.enqueue(new TextEncoder().encode('","dry_run":true}'));
          controller.close();
          return;
        }
        controller.enqueue(sent === 0 ? chunk : new TextEncoder().encode("b".repeat(chunk.byteLength)));
        sent += chunk.byteLength;
      },
    });
    const res = await api(`/api/fields/import-csv/${group}`, {
      method: "POST",
      bearer: await admin(),
      body,
      headers: { "Content-Type": "application/json" },
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
  });
});
