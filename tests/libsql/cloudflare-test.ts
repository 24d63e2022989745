import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient, type InValue, type ResultSet } from "@libsql/client";
import { readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { getPlatformProxy } from "wrangler";
import type { Env } from "../../functions/lib/env";

/**
 * What the API suites take from `cloudflare:test`, for a run in Node with libSQL as the metadata store
 * (tests/libsql/vitest.config.ts): a fresh embedded libSQL file per test file, the local R2 bucket and queue
 * from wrangler's platform proxy, and SELF that hands each request to the Worker's API.
 */
const root = path.resolve(__dirname, "../..");
const file = path.join(mkdtempSync(path.join(tmpdir(), "mam-libsql-")), "meta.db");
const platform = await getPlatformProxy<Env>({ configPath: path.join(root, "wrangler.toml"), persist: false });

/**
 * The bucket through the platform proxy: its calls cross from Node into workerd, where R2 takes only bodies of
 * known length, and a stream crossing over loses its length. So streamed bodies are read into bytes first.
 */
const bytesOf = async (value: unknown) => (value instanceof ReadableStream ? new Response(value).arrayBuffer() : value);
const bucket = platform.env.BUCKET;
const proxiedBucket = Object.assign(Object.create(null), {
  head: bucket.head.bind(bucket),
  get: bucket.get.bind(bucket),
  list: bucket.list.bind(bucket),
  delete: bucket.delete.bind(bucket),
  createMultipartUpload: bucket.createMultipartUpload.bind(bucket),
  put: async (key: string, value: unknown, options?: R2PutOptions) => bucket.put(key, (await bytesOf(value)) as ArrayBuffer, options),
  resumeMultipartUpload(key: string, uploadId: string) {
    const upload = bucket.resumeMultipartUpload(key, uploadId);
    return {
      key,
      uploadId,
      uploadPart: async (n: number, value: unknown) => upload.uploadPart(n, (await bytesOf(value)) as ArrayBuffer),
      abort: () => upload.abort(),
      complete: (parts: R2UploadedPart[]) => upload.complete(parts),
    };
  },
}) as R2Bucket;

export const env = {
  ...platform.env,
  BUCKET: proxiedBucket,
  LIBSQL_URL: `file:${file}`,
  // The live room's class runs in the Worker's own script, which the platform proxy does not load: without the
  // binding the API skips its pushes, as a deployment without the room does (functions/review/live.ts).
  REVIEW_ROOM: undefined,
  JWT_SECRET: "test-secret-for-the-api-suite-only-0123456789",
  ADMIN_LOGIN: "admin",
  ADMIN_PASSWORD: "admin-test-password",
  TEST_MIGRATIONS: await readD1Migrations(path.join(root, "db/migrations")),
} as Env & { TEST_MIGRATIONS: Awaited<ReturnType<typeof readD1Migrations>> };

/**
 * The migrations as the Worker's database gets them (wrangler d1 migrations apply), on the libSQL file: the ones
 * d1_migrations does not name yet. Every file's set-up asks (the files share this process and its database).
 */
export async function applyD1Migrations(_db: unknown, migrations: typeof env.TEST_MIGRATIONS) {
  const client = createClient({ url: env.LIBSQL_URL as string });
  await client.execute(
    "CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)",
  );
  const applied = new Set((await client.execute("SELECT name FROM d1_migrations")).rows.map((r) => r.name));
  for (const migration of migrations.filter((m) => !applied.has(m.name)))
    await client.batch([...migration.queries, { sql: "INSERT INTO d1_migrations (name) VALUES (?)", args: [migration.name] }], "write");
  client.close();
}

/**
 * The libSQL file as much of D1's API as tests/api/fresh-start.ts uses (prepare, bind, all, batch), so each file
 * starts from the database the migrations left, as in the Workers runtime.
 */
function libsqlAsD1(url: string): D1Database {
  const client = createClient({ url });
  const objects = (rs: ResultSet) => rs.rows.map((row) => Object.fromEntries(rs.columns.map((c, i) => [c, row[i]])));
  const statement = (sql: string, args: InValue[] = []) => ({
    sql,
    args,
    bind: (...values: InValue[]) => statement(sql, values),
    all: async () => ({ results: objects(await client.execute({ sql, args })) }),
  });
  type Statement = ReturnType<typeof statement>;
  return {
    prepare: (sql: string) => statement(sql),
    batch: async (statements: Statement[]) =>
      (
        await client.batch(
          statements.map(({ sql, args }) => ({ sql, args })),
          "write",
        )
      ).map((rs) => ({ results: objects(rs) })),
  } as unknown as D1Database;
}

export const metadataDatabase = libsqlAsD1(env.LIBSQL_URL as string);

/** The Workers runtime's FixedLengthStream, which Node lacks: passes the bytes on and fails on any other count. */
class NodeFixedLengthStream extends TransformStream<Uint8Array, Uint8Array> {
  constructor(expected: number) {
    let seen = 0;
    super({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > expected) throw new RangeError(`more than ${expected} bytes`);
        controller.enqueue(chunk);
      },
      flush() {
        if (seen !== expected) throw new RangeError(`${seen} bytes, ${expected} expected`);
      },
    });
  }
}
(globalThis as { FixedLengthStream?: unknown }).FixedLengthStream ??= NodeFixedLengthStream;

interface TestContext extends ExecutionContext {
  pending: Promise<unknown>[];
}

export function createExecutionContext(): TestContext {
  const pending: Promise<unknown>[] = [];
  const ctx = { pending, waitUntil: (p: Promise<unknown>) => pending.push(p), passThroughOnException: () => {}, props: {} };
  return ctx as unknown as TestContext;
}

/** Node has no request lifetime: what the request left running finishes before its answer is handed back. */
export async function waitOnExecutionContext(ctx: ExecutionContext) {
  await Promise.allSettled((ctx as TestContext).pending);
}

const { api } = await import("../../functions/index");

/**
 * What HTTP does between a client and the Worker, which a call in one process skips: the request's body gets
 * its Content-Length, and a compressed answer is decoded for the client.
 */
async function overTheWire(request: Request): Promise<Request> {
  if (!request.body || request.headers.has("Content-Length")) return request;
  const bytes = await request.arrayBuffer();
  const headers = new Headers(request.headers);
  headers.set("Content-Length", String(bytes.byteLength));
  return new Request(request.url, { method: request.method, headers, body: bytes });
}

function decoded(response: Response): Response {
  const encoding = response.headers.get("Content-Encoding");
  if (!response.body || (encoding !== "gzip" && encoding !== "deflate")) return response;
  // As fetch() answers: the headers as sent, the body decoded.
  const body = response.body.pipeThrough(new DecompressionStream(encoding));
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

export const SELF = {
  async fetch(request: Request) {
    const ctx = createExecutionContext();
    const response = await api.fetch(await overTheWire(request), env, ctx);
    await waitOnExecutionContext(ctx);
    return decoded(response);
  },
};
