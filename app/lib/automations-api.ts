import type { z } from "zod";
import type {
  catalogueOut,
  runOut,
  runsOut,
  setupBody,
  SharesBody,
  SharesOut,
  triggerFormOut,
  workflowOut,
} from "../../functions/udwf/schemas";
import * as tags from "../../functions/tags/contract";
import { api, call } from "./api";

/** /api/udwf (automations); types from the API's own schemas. */
export type Workflow = z.infer<typeof workflowOut>;
export type Catalogue = z.infer<typeof catalogueOut>;
export type Run = z.infer<typeof runOut>;
export type RunsPage = z.infer<typeof runsOut>;
export type TriggerForm = z.infer<typeof triggerFormOut>;
export type Setup = z.input<typeof setupBody>;

export const listWorkflows = (signal?: AbortSignal) => api<{ items: Workflow[] }>("/udwf/workflows", { signal });
export const getWorkflow = (id: string, signal?: AbortSignal) => api<Workflow>(`/udwf/workflow/${id}`, { signal });
export const getCatalogue = (signal?: AbortSignal) => api<Catalogue>("/udwf/actions", { signal });
export const createWorkflow = (name: string) => api<{ workflow_id: string }>("/udwf/workflow", { method: "POST", body: { name } });
export const patchWorkflow = (id: string, body: { name?: string; description?: string }) =>
  api(`/udwf/workflow/${id}`, { method: "PATCH", body });
export const deleteWorkflow = (id: string) => api(`/udwf/workflow/${id}`, { method: "DELETE" });
export const saveSetup = (id: string, body: Setup) => api(`/udwf/workflow-setup/${id}`, { method: "PATCH", body });
export const setEnabled = (id: string, enabled: boolean) =>
  api(`/udwf/workflow-enable-disable/${id}`, { method: "POST", body: { enabled } });
export const getTriggerForm = (id: string) => api<TriggerForm>(`/udwf/trigger-form/${id}`);
export const execute = (id: string, body: { entities?: { id: string; type: "asset" | "group" }[]; form?: Record<string, unknown> }) =>
  api<{ run_id: string }>(`/udwf/execute/${id}`, { method: "POST", body });
export const listRuns = (workflow: string, signal?: AbortSignal) => api<RunsPage>("/udwf/runs", { query: { workflow, take: 20 }, signal });
export const getRun = (id: string, signal?: AbortSignal) => api<Run>(`/udwf/run/${id}`, { signal });
export const retryRun = (id: string) => api<{ run_id: string }>(`/udwf/run/${id}/retry`, { method: "POST" });
export const listShares = (id: string, signal?: AbortSignal) => api<SharesOut>(`/udwf/workflow-shares/${id}`, { signal });
export const saveShares = (id: string, body: SharesBody) => api(`/udwf/workflow-shares/${id}`, { method: "POST", body });
export const listTags = () => call(tags.listTags, { query: { take: 200 } });

/** A run still going: its history keeps refreshing. */
export const isLive = (status: string) => status === "queued" || status === "running" || status === "waiting";
