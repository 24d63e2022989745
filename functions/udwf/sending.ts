import { nowSeconds } from "../../db/schema/columns";
import { accessContext } from "../lib/access";
import { countAttempt } from "../lib/attempts";
import { configOf } from "../lib/config";
import type { Db } from "../lib/db";
import type { AuthUser, Env } from "../lib/env";
import { StepError } from "./step-error";

/**
 * The steps that send something out of the archive, `email.send` and `webhook.call`, and what bounds them
 * (docs/decisions/053-outbound-sends.md): a workflow can be started by anyone who uploads into a watched group, so
 * without a bound one workflow is a mail cannon or a request flood with the installation's name on it.
 * - UDWF_SEND_PER_HOUR (default 1000, functions/lib/config.ts): sends per workflow owner per hour, all their workflows together; a mail to
 *   five recipients is five, each webhook attempt (retries too) is one. Counted before sending, in login_attempts'
 *   fixed windows (functions/lib/attempts.ts), so parallel runs cannot all pass on one stale count.
 * - UDWF_SEND_TEAM (a group id): when set, only admins and members of that team may have workflows that send.
 * Admins' workflows are bound by neither, as admins pass every other check: they can change both settings' effect
 * anyway (teams are theirs to fill), and the installation's own bulk automations run as an admin.
 * Both failures are final for the step (a retry within the hour would be refused the same way).
 */

export type SendAction = "email.send" | "webhook.call";

/** Throws the step's StepError when the owner may not send now; otherwise counts `count` sends against the hour. */
export async function requireSend(
  db: Db,
  env: Pick<Env, "UDWF_SEND_PER_HOUR" | "UDWF_SEND_TEAM">,
  owner: AuthUser,
  action: SendAction,
  count = 1,
) {
  if (owner.isAdmin) return;
  const { UDWF_SEND_TEAM: team, UDWF_SEND_PER_HOUR: max } = configOf(env);
  if (team && !(await accessContext(db, owner)).teams.includes(team))
    throw new StepError(`«${action}» разрешено только участникам команды, которой администратор доверил отправку (UDWF_SEND_TEAM)`);
  const now = nowSeconds();
  const [row] = await countAttempt(db, `udwf-send:${owner.userId}`, { max, windowSeconds: 3600 }, now, undefined, count);
  if (row && row.failures > max) {
    const minutes = Math.max(1, Math.ceil((row.windowEnds - now) / 60));
    throw new StepError(`лимит отправок владельца исчерпан: не больше ${max} в час (UDWF_SEND_PER_HOUR); снова через ${minutes} мин`);
  }
}
