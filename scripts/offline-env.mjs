/** Switches that keep wrangler and miniflare from phoning home; every script that runs them uses these. */
export const offlineEnv = {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
};

export const withOfflineEnv = (env = process.env) => ({ ...env, ...offlineEnv });
