import { authCases, systemCases } from "./auth";
import { groupCases } from "./groups";
import type { RouteCase } from "./types";
import { userCases } from "./users";

/**
 * Every resource's matrix declarations. A new resource adds tests/api/authz/<resource>.ts and one
 * line here; until it does, its routes fail "every registered route declares its expectations".
 */
export const routeCases: RouteCase[] = [...systemCases, ...authCases, ...groupCases, ...userCases];
