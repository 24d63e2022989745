/**
 * The server variables the browser may see, by name (Epic Stack's getEnv): only what is listed here leaves the
 * server, through the root loader (app/root.tsx). A DSN is public by design: it only lets one send events.
 */
export const publicEnvNames = ["SENTRY_DSN"] as const;

export type PublicEnv = Partial<Record<(typeof publicEnvNames)[number], string>>;

export function publicEnv(env: object): PublicEnv {
  const source = env as Record<string, unknown>;
  const out: PublicEnv = {};
  for (const name of publicEnvNames) {
    const value = source[name];
    if (typeof value === "string" && value) out[name] = value;
  }
  return out;
}
