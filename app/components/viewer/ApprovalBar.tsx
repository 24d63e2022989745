import { Badge, Button, Group, Text } from "@mantine/core";
import { useState } from "react";
import { RequestReviewModal } from "./RequestReviewModal";
import { ru } from "../../i18n/ru";
import { ApiError } from "../../lib/api";
import { showError, showInfo } from "../../lib/notify";
import { type ApprovalOut, decide, getApproval, type ReviewStatus } from "./review-api";

const t = ru.review.approval;

const colors: Record<string, string> = { pending: "gray", approved: "green", changes_requested: "yellow", rejected: "red" };

/**
 * The version's approval: the overall status by the request's rule, each reviewer's answer, and «Одобрить» /
 * «Нужны правки» for those the API lets decide (a requested reviewer of this version, or update on the asset), and
 * «Запросить согласование» for those who may ask (update; inviting outside addresses needs acl, and offering their
 * links the proxy's download needs download).
 */
export function ApprovalBar({
  assetId,
  version,
  canUpdate,
  access = [],
  me,
  round,
  onRound,
}: {
  assetId: string;
  version: number;
  canUpdate: boolean;
  /** The caller's rights on the asset (asset_access). */
  access?: string[];
  me: string | null;
  /** The round as the panel holds it: the screen's loader read it, the live room and decisions here change it (null: unreadable). */
  round: ApprovalOut | null;
  onRound: (round: ApprovalOut) => void;
}) {
  const [busy, setBusy] = useState<ReviewStatus | null>(null);
  const [asking, setAsking] = useState(false);

  if (!round) return null;
  const asked = round.reviewers.some((r) => r.requested && r.user_id === me);
  const mayDecide = canUpdate || asked;
  const started = round.request_id !== null || round.decisions.length > 0;
  // Nothing to show to someone who may neither see a round nor start one.
  if (!started && !mayDecide) return null;

  const send = async (status: ReviewStatus) => {
    setBusy(status);
    try {
      onRound(await decide(assetId, version, status));
      showInfo(t.decided);
    } catch (error) {
      // The rights may have changed since the screen opened: say who decides rather than the bare refusal.
      showError(error instanceof ApiError && error.status === 403 ? t.forbidden : error);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Group gap="xs" wrap="wrap" component="section" aria-label={t.title} data-testid="approval-bar">
      <Text size="sm" fw={600}>
        {t.title}
      </Text>
      {started ? (
        <Badge color={colors[round.overall]} variant="light" data-testid="approval-status">
          {t.status[round.overall]}
        </Badge>
      ) : (
        <Text size="xs" c="dimmed">
          {t.noReviewers}
        </Text>
      )}
      {round.reviewers.length > 0 && (
        <Group gap={4} component="ul" aria-label={t.reviewers} m={0} p={0} style={{ listStyle: "none" }}>
          {round.reviewers.map((r) => (
            <Text component="li" key={r.user_id} size="xs" c="dimmed" data-testid="approval-reviewer">
              {r.name ?? r.email ?? r.user_id}
              {r.requested ? "" : ` (${t.notRequested})`}: {t.status[r.status]}
            </Text>
          ))}
        </Group>
      )}
      {canUpdate && (
        <>
          <Button size="compact-xs" variant="light" onClick={() => setAsking(true)}>
            {ru.review.request.open}
          </Button>
          {/* Mounted while open: each opening starts from the round's current rule. */}
          {asking && (
            <RequestReviewModal
              opened
              onClose={() => setAsking(false)}
              assetId={assetId}
              version={version}
              mayInvite={access.includes("acl")}
              mayDownload={access.includes("download")}
              // The round as the API now has it (the live room brings the same to others watching).
              onDone={() => getApproval(assetId, version).then(onRound, console.error)}
              allMustApprove={round.all_must_approve}
            />
          )}
        </>
      )}
      {mayDecide && (
        <Group gap={4}>
          <Button size="compact-xs" color="green" variant="light" loading={busy === "approved"} onClick={() => send("approved")}>
            {t.approve}
          </Button>
          <Button
            size="compact-xs"
            color="yellow"
            variant="light"
            loading={busy === "changes_requested"}
            onClick={() => send("changes_requested")}
          >
            {t.requestChanges}
          </Button>
        </Group>
      )}
    </Group>
  );
}
