import type { z } from "zod";
import type { catalogueOut, executeBody, runsOut, setupBody, SharesBody, triggerFormOut } from "../../shared/udwf/schemas";
import * as tags from "../../shared/tags/contract";
import * as udwf from "../../shared/udwf/contract";
import { call } from "./api";

/** /api/udwf (automations); types from the API's own schemas. */
export type { WorkflowOut as Workflow, RunOut as Run } from "../../shared/udwf/schemas";
export type Catalogue = z.infer<typeof catalogueOut>;
export type RunsPage = z.infer<typeof runsOut>;
export type TriggerForm = z.infer<typeof triggerFormOut>;
export type Setup = z.input<typeof setupBody>;

export const listWorkflows = (signal?: AbortSignal) => call(udwf.listWorkflows, { signal });
export const getWorkflow = (id: string, signal?: AbortSignal) => call(udwf.getWorkflow, { params: { id }, signal });
export const getCatalogue = (signal?: AbortSignal) => call(udwf.catalogue, { signal });
export const createWorkflow = (name: string) => call(udwf.createWorkflow, { body: { name } });
export const patchWorkflow = (id: string, body: { name?: string; description?: string }) =>
  call(udwf.patchWorkflow, { params: { id }, body });
export const deleteWorkflow = (id: string) => call(udwf.deleteWorkflow, { params: { id } });
export const saveSetup = (id: string, body: Setup) => call(udwf.saveSetup, { params: { id }, body });
export const setEnabled = (id: string, enabled: boolean) => call(udwf.setEnabled, { params: { id }, body: { enabled } });
export const getTriggerForm = (id: string) => call(udwf.triggerForm, { params: { id } });
export const execute = (id: string, body: z.input<typeof executeBody>) => call(udwf.execute, { params: { id }, body });
export const listRuns = (workflow: string, signal?: AbortSignal) => call(udwf.listRuns, { query: { workflow, take: 20 }, signal });
export const getRun = (id: string, signal?: AbortSignal) => call(udwf.getRun, { params: { id }, signal });
export const retryRun = (id: string) => call(udwf.retryRun, { params: { id } });
export const listShares = (id: string, signal?: AbortSignal) => call(udwf.listShares, { params: { id }, signal });
export const saveShares = (id: string, body: SharesBody) => call(udwf.saveShares, { params: { id }, body });
export const listTags = () => call(tags.listTags, { query: { take: 200 } });

/** A run still going: its history keeps refreshing. */
export const isLive = (status: string) => status === "queued" || status === "running" || status === "waiting";
