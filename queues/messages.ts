/**
 * Every message on the JOBS queue: one discriminated union shared by producers and consumers.
 * Later capabilities add their members (task run, automation step).
 */
export type JobMessage =
  | { type: "ping"; sentAt: number }
  /** A variant finished uploading (functions/uploads/complete.ts): previews, proxies, metadata, sha256 check. */
  | {
      type: "upload-finished";
      assetId: string;
      version: number;
      variantId: string;
      variantType: string;
      size: number;
      mime: string;
      /** The client's claimed SHA-256, to be verified by the consumer (null when none was sent). */
      sha256: string | null;
      userId: string;
    }
  /**
   * Hand task jobId to the transcoder (no run), or, with run, check that the transcoder still holds
   * that hand-over (the watch; decision 011). Idempotent: a task no longer live ends the chain.
   */
  | { type: "task-run"; jobId: string; run?: number }
  /** Run (or go on with) automation run runId (functions/udwf/runner.ts); steps already done are skipped. */
  | { type: "udwf-run"; runId: string };

export type JobMessageType = JobMessage["type"];
