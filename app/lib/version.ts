/** Spec 9: the front end looks for a new deployment every 5 minutes. */
export const VERSION_CHECK_INTERVAL_MS = 5 * 60 * 1000;

/** The build this page was loaded from (vite.config.ts writes the same id to /version.json). */
export const CURRENT_BUILD = __BUILD_ID__;

export interface DeployedVersion {
  version: string;
  build: string;
}

/** GET /version.json, bypassing every cache: a stale copy would hide the update. */
export async function fetchDeployedVersion(): Promise<DeployedVersion> {
  const response = await fetch(`/version.json?t=${Date.now()}`, { cache: "no-store" });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const body = (await response.json()) as Partial<DeployedVersion>;
  if (typeof body.build !== "string") throw new Error("version.json without build");
  return { version: String(body.version ?? ""), build: body.build };
}

/** A different build id means a new deployment; the dismissed one is not offered again. */
export function shouldOfferUpdate(deployedBuild: string, currentBuild: string, dismissedBuild: string | null): boolean {
  return deployedBuild !== currentBuild && deployedBuild !== dismissedBuild;
}
