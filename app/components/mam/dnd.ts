import type { DragEvent } from "react";

/** Drag and drop of groups and assets onto a group of the tree (a move between groups). */
export const DRAG_TYPE = "application/x-mam-members";

export interface DragPayload {
  from: string;
  members: { el_id: string; el_type: "asset" | "group" }[];
}

export function startDrag(event: DragEvent, payload: DragPayload) {
  event.dataTransfer.setData(DRAG_TYPE, JSON.stringify(payload));
  event.dataTransfer.effectAllowed = "move";
}

export function readDrag(event: DragEvent): DragPayload | null {
  const raw = event.dataTransfer.getData(DRAG_TYPE);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as DragPayload;
  } catch {
    return null;
  }
}

export const carriesMembers = (event: DragEvent) => event.dataTransfer.types.includes(DRAG_TYPE);
