// The few parts of oidc-provider (which ships no types) that tests/e2e/oidc-provider.ts uses.
declare module "oidc-provider" {
  import type { Server } from "node:http";
  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }
  interface Configuration {
    clients?: Record<string, unknown>[];
    features?: Record<string, unknown>;
    conformIdTokenClaims?: boolean;
    claims?: Record<string, string[]>;
    cookies?: { keys?: string[] };
    findAccount?: (ctx: unknown, id: string) => Promise<Account | undefined>;
  }
  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    listen(port: number, host: string, callback: () => void): Server;
  }
}
