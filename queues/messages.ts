/**
 * Every message on the JOBS queue: one discriminated union shared by producers and consumers.
 * Later capabilities add their members (upload finished, task run, automation step).
 */
export type JobMessage = { type: "ping"; sentAt: number };

export type JobMessageType = JobMessage["type"];
