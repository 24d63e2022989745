import * as assets from "../../../shared/assets/contract";
import { apiFetch, routePath } from "../../lib/api";

/**
 * Saves a variant as a file. The bytes come through apiFetch (bearer, refresh, error toast by the caller)
 * rather than a plain link: a download started by <a href> is not reliably routed through the service
 * worker that would add the bearer.
 */
export async function downloadFile(path: string, fileName: string) {
  const response = await apiFetch(path, { headers: { Accept: "*/*" } });
  const url = URL.createObjectURL(await response.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Give the browser time to start reading the blob before it goes.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export const originalPath = (assetId: string) => routePath(assets.download, { id: assetId, version: "latest", variant: "initial" });
export const variantPath = (variantId: string) => routePath(assets.downloadVariant, { id: variantId });
