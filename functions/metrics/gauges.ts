import { sql } from "drizzle-orm";
import { taskStatuses } from "../../db/schema/tasks";
import { udwfErrorClasses, udwfRunStatuses } from "../../db/schema/udwf";
import { uploadStates } from "../../db/schema/uploads";
import type { Db } from "../lib/db";
import type { Family } from "./prometheus";

/**
 * What the database knows, counted at scrape time (one batch): tasks by status (the queue's depth is the
 * inqueue ones; dead letters are those that ended in error after their retries, decision 011), uploads and
 * their bytes by state, share-link views and downloads, automation runs by status and failed ones by class. Gauges: they are read, not accumulated here.
 */
export async function databaseFamilies(db: Db): Promise<Family[]> {
  const [tasks, uploads, links, runs] = await db.batch([
    db.all<{ status: string; n: number }>(sql`SELECT status, count(*) AS n FROM tasks GROUP BY status`),
    db.all<{ state: string; n: number; bytes: number }>(
      sql`SELECT state, count(*) AS n, coalesce(sum(size), 0) AS bytes FROM uploads GROUP BY state`,
    ),
    db.all<{ views: number; downloads: number }>(
      sql`SELECT coalesce(sum(view_count), 0) AS views, coalesce(sum(download_count), 0) AS downloads FROM share_links`,
    ),
    db.all<{ status: string; error_class: string | null; n: number; retries: number }>(
      sql`SELECT status, error_class, count(*) AS n, coalesce(sum(retries), 0) AS retries FROM udwf_runs GROUP BY status, error_class`,
    ),
  ]);
  const runsWhere = (keep: (r: (typeof runs)[number]) => boolean, what: "n" | "retries") =>
    runs.filter(keep).reduce((sum, r) => sum + r[what], 0);
  const taskCount = (status: string) => tasks.find((t) => t.status === status)?.n ?? 0;
  const upload = (state: string) => uploads.find((u) => u.state === state);
  return [
    {
      name: "mam_tasks",
      help: "Tasks by status.",
      type: "gauge",
      samples: taskStatuses.map((status) => ({ labels: { status }, value: taskCount(status) })),
    },
    {
      name: "mam_queue_depth",
      help: "Tasks waiting in the queue (status inqueue).",
      type: "gauge",
      samples: [{ value: taskCount("inqueue") }],
    },
    {
      name: "mam_dead_letters",
      help: "Failed tasks (status error): hand-overs that ran out of retries or failed in the transcoder.",
      type: "gauge",
      samples: [{ value: taskCount("error") }],
    },
    {
      name: "mam_uploads",
      help: "Uploads by state.",
      type: "gauge",
      samples: uploadStates.map((state) => ({ labels: { state }, value: upload(state)?.n ?? 0 })),
    },
    {
      name: "mam_upload_bytes",
      help: "Declared bytes of uploads by state (completed: bytes stored by uploads).",
      type: "gauge",
      samples: uploadStates.map((state) => ({ labels: { state }, value: upload(state)?.bytes ?? 0 })),
    },
    {
      name: "mam_workflow_runs",
      help: "Automation runs by status.",
      type: "gauge",
      samples: udwfRunStatuses.map((status) => ({ labels: { status }, value: runsWhere((r) => r.status === status, "n") })),
    },
    {
      name: "mam_workflow_runs_failed",
      help: "Failed automation runs by error class (step: a step's own failure; denied: a right or object missing; internal: a bug).",
      type: "gauge",
      samples: udwfErrorClasses.map((error_class) => ({
        labels: { error_class },
        value: runsWhere((r) => r.status === "failed" && (r.error_class ?? "internal") === error_class, "n"),
      })),
    },
    {
      name: "mam_workflow_run_retries",
      help: "Failed tries of automation runs, counted on the runs (each try the queue hands back).",
      type: "gauge",
      samples: [{ value: runsWhere(() => true, "retries") }],
    },
    { name: "mam_share_link_views", help: "Share-link page views, all links.", type: "gauge", samples: [{ value: links[0]?.views ?? 0 }] },
    {
      name: "mam_share_link_downloads",
      help: "Share-link downloads, all links.",
      type: "gauge",
      samples: [{ value: links[0]?.downloads ?? 0 }],
    },
  ];
}
