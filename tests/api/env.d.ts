import type { D1Migration } from "cloudflare:test";
import type { Env as WorkerEnv } from "../../functions/lib/env";

// Types `env` from "cloudflare:test" as the Worker's own Env, plus the test-only migrations binding.
declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}
