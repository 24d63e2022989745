import { z } from "@hono/zod-openapi";

/**
 * This Worker's own upload server (functions/uploads/servers.ts lists the others): here because assets' "prepare
 * an upload into the asset" answers it too, and assets lie below uploads. No server imports.
 */
export const uploadServer = z.object({ id: z.string(), url: z.string() }).openapi("UploadServer");

export const WORKER_SERVER_ID = "worker";

/** This Worker's own upload server, at the address the client reached it by. */
export const workerServer = (requestUrl: string) => ({ id: WORKER_SERVER_ID, url: `${new URL(requestUrl).origin}/api/ul` });

/** UPLOAD_SERVERS' entries (functions/uploads/servers.ts): other deployments of this Worker, each under its `url`. */
export const configuredServer = z.object({
  id: z.string().trim().min(1).max(100),
  url: z
    .string()
    .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), "не URL")
    .transform((u) => u.replace(/\/+$/, "")),
});
export const configuredServers = z.array(configuredServer).max(20);
