import { fetchDeployedVersion } from "../lib/version";

/**
 * The build deployed now, read by VersionWatcher through a fetcher (a resource route: no screen). A failed
 * check answers `build: null` instead of throwing, so it never replaces the screen with an error boundary;
 * the watcher reports it.
 */
export async function clientLoader(): Promise<{ build: string | null }> {
  try {
    return { build: (await fetchDeployedVersion()).build };
  } catch (error) {
    console.error(error);
    return { build: null };
  }
}
