import { z } from "@hono/zod-openapi";
import { actionParams, actionTypes, assetActions, opsFor, triggerTypes } from "../../shared/udwf/schemas";

/**
 * GET /api/udwf/actions: every action with its parameters as JSON Schema (the input side: defaults are optional),
 * the trigger types and each condition subject's ops. The editor builds its forms from this, so a new action needs
 * no front-end change beyond its name in the dictionary.
 */
let built: ReturnType<typeof build> | undefined;

function build() {
  return {
    actions: actionTypes.map((action) => ({
      action,
      needs_asset: assetActions.includes(action),
      params: z.toJSONSchema(actionParams[action], { io: "input", unrepresentable: "any" }) as Record<string, unknown>,
    })),
    triggers: [...triggerTypes],
    conditions: Object.fromEntries(Object.entries(opsFor).map(([on, ops]) => [on, [...ops]])),
  };
}

export const catalogue = () => (built ??= build());
