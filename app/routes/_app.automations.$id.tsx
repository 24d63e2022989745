import { Alert, Button, Card, Group, Stack, Switch, Text, Textarea, TextInput, Title } from "@mantine/core";
import { useLoaderData, useNavigate, useRevalidator, useSearchParams } from "@remix-run/react";
import { useMemo, useState } from "react";
import type { FormField } from "../../functions/udwf/schemas";
import type { ConditionValue } from "../components/automations/ConditionRow";
import { ConditionRow } from "../components/automations/ConditionRow";
import { RunDialog } from "../components/automations/RunDialog";
import { RunHistory } from "../components/automations/RunHistory";
import { SharingCard } from "../components/automations/SharingCard";
import { StepsEditor, type StepValue } from "../components/automations/StepsEditor";
import { TriggerEditor, type TriggerValue } from "../components/automations/TriggerEditor";
import { ru } from "../i18n/ru";
import { ApiError } from "../lib/api";
import {
  deleteWorkflow,
  getCatalogue,
  getRun,
  getTriggerForm,
  getWorkflow,
  isLive,
  listRuns,
  listShares,
  listTags,
  patchWorkflow,
  saveSetup,
  setEnabled,
  type Setup,
  type TriggerForm,
} from "../lib/automations-api";
import { pageMeta } from "../lib/meta";
import { showError, showInfo } from "../lib/notify";
import { screenLoader, useRevalidateEvery } from "../lib/route-data";
import { BackLink } from "../components/ui/BackLink";

export const meta = pageMeta(ru.pages.automation);

/** The run opened in the history (`?run=`): its steps load with the screen and reload with it while it goes on. */
const openRunParam = "run";

export const clientLoader = screenLoader(async ({ params, request }) => {
  const id = params.id!;
  const runId = new URL(request.url).searchParams.get(openRunParam);
  const [workflow, catalogue, runs, tags, shares, openRun] = await Promise.all([
    getWorkflow(id, request.signal),
    getCatalogue(request.signal),
    listRuns(id, request.signal),
    listTags(),
    listShares(id, request.signal),
    // A run that is gone (an old link) closes rather than failing the screen.
    runId ? getRun(runId, request.signal).catch((e) => (e instanceof ApiError && e.status === 404 ? null : Promise.reject(e))) : null,
  ]);
  return { workflow, catalogue, runs, shares, openRun, tags: tags.map((t) => ({ value: t.tag_id, label: t.tag_name })) };
});

export { RouteError as ErrorBoundary } from "../components/RouteError";

const t = ru.automations;

/** The server's validation details, by field path ("steps.1.params.tag_id"). */
function detailsOf(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError)) return {};
  const details = (err.envelope?.details ?? []) as { field: string; message: string }[];
  return Object.fromEntries(details.map((d) => [d.field, d.message]));
}
const under = (errors: Record<string, string>, prefix: string) =>
  Object.fromEntries(
    Object.entries(errors)
      .filter(([k]) => k.startsWith(prefix))
      .map(([k, v]) => [k.slice(prefix.length), v]),
  );

/**
 * /automations/{id}: the editor (trigger, conditions, steps from the catalogue), "Запустить", and the run history.
 * Keyed by the workflow: another workflow's page starts from its saved state, a refresh of this one keeps the edits.
 */
export default function AutomationRoute() {
  const data = useLoaderData<typeof clientLoader>();
  return <AutomationPage key={data.workflow.workflow_id} {...data} />;
}

type AutomationData = Awaited<ReturnType<typeof clientLoader>>;

function AutomationPage({ workflow, catalogue, runs, tags, shares, openRun }: AutomationData) {
  const [searchParams, setSearchParams] = useSearchParams();
  const openRunId = searchParams.get(openRunParam);
  const openRunOf = (runId: string | null) =>
    setSearchParams(
      (p) => {
        if (runId) p.set(openRunParam, runId);
        else p.delete(openRunParam);
        return p;
      },
      { replace: true, preventScrollReset: true },
    );
  const canEdit = workflow.access !== "view";
  const { revalidate } = useRevalidator();
  const navigate = useNavigate();
  const [name, setName] = useState(workflow.name);
  const [description, setDescription] = useState(workflow.description);
  const [trigger, setTrigger] = useState<TriggerValue>((workflow.trigger as TriggerValue | null) ?? { type: "asset.uploaded" });
  const [conditions, setConditions] = useState<ConditionValue[]>(workflow.conditions as unknown as ConditionValue[]);
  const [steps, setSteps] = useState<StepValue[]>(workflow.steps);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [runForm, setRunForm] = useState<TriggerForm | null>(null);
  const live = useMemo(() => runs.items.some((r) => isLive(r.status)), [runs]);
  // The history refreshes every 2 s while a run is going, and every 10 s otherwise (runs started by events).
  useRevalidateEvery(live ? 2000 : 10_000);

  const save = async () => {
    setSaving(true);
    setErrors({});
    try {
      if (name !== workflow.name || description !== workflow.description) await patchWorkflow(workflow.workflow_id, { name, description });
      await saveSetup(workflow.workflow_id, {
        trigger: { ...trigger, form: (trigger.form ?? []) as FormField[] },
        conditions,
        steps,
      } as Setup);
      showInfo(t.saved);
      revalidate();
    } catch (err) {
      setErrors(detailsOf(err));
      showError(err);
    } finally {
      setSaving(false);
    }
  };
  const toggle = async (enabled: boolean) => {
    try {
      await setEnabled(workflow.workflow_id, enabled);
    } catch (err) {
      showError(err);
    }
    revalidate();
  };
  const remove = async () => {
    if (!window.confirm(t.deleteConfirm)) return;
    try {
      await deleteWorkflow(workflow.workflow_id);
      navigate("/automations");
    } catch (err) {
      showError(err);
    }
  };

  return (
    <Stack gap="md">
      <BackLink to="/automations" label={t.back} />
      <Group justify="space-between">
        <Title order={2}>{workflow.name}</Title>
        <Group>
          <Switch label={t.enabled} checked={workflow.enabled} disabled={!canEdit} onChange={(e) => toggle(e.currentTarget.checked)} />
          <Button
            variant="default"
            onClick={() => getTriggerForm(workflow.workflow_id).then(setRunForm, showError)}
            disabled={!canEdit || !workflow.steps.length}
          >
            {t.run}
          </Button>
          {workflow.access === "owner" && (
            <Button color="red" variant="subtle" onClick={remove}>
              {t.delete}
            </Button>
          )}
        </Group>
      </Group>
      <Card withBorder>
        <Stack gap="xs">
          <TextInput label={t.name} value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} />
          <Textarea
            label={t.description}
            autosize
            minRows={1}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
          />
        </Stack>
      </Card>
      <Card withBorder>
        <Title order={4} mb="xs">
          {t.trigger}
        </Title>
        <TriggerEditor value={trigger} onChange={setTrigger} tags={tags} errors={under(errors, "trigger.")} hookUrl={workflow.hook_url} />
      </Card>
      <Card withBorder>
        <Title order={4} mb="xs">
          {t.conditions}
        </Title>
        <Stack gap="xs">
          {conditions.map((c, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: controlled rows with no id of their own; the position is their identity
            <Group key={`${i}-${c.on}`} align="end" gap="xs">
              <ConditionRow
                value={c}
                onChange={(next) => setConditions(conditions.map((x, n) => (n === i ? next : x)))}
                tags={tags}
                error={Object.values(under(errors, `conditions.${i}.`))[0]}
              />
              <Button variant="subtle" color="red" size="xs" onClick={() => setConditions(conditions.filter((_, n) => n !== i))}>
                {t.remove}
              </Button>
            </Group>
          ))}
          <Button
            variant="subtle"
            size="xs"
            w="fit-content"
            onClick={() => setConditions([...conditions, { on: "mime", op: "prefix", value: "" }])}
          >
            {t.conditionAdd}
          </Button>
        </Stack>
      </Card>
      <Card withBorder>
        <Title order={4} mb="xs">
          {t.steps}
        </Title>
        <StepsEditor value={steps} onChange={setSteps} catalogue={catalogue} tags={tags} errors={under(errors, "steps.")} />
      </Card>
      {Object.keys(errors).length > 0 && (
        <Alert color="red" data-testid="setup-errors">
          {Object.entries(errors).map(([field, message]) => (
            <div key={field}>
              «{field}»: {message}
            </div>
          ))}
        </Alert>
      )}
      <Group>
        <Button onClick={save} loading={saving} disabled={!canEdit}>
          {t.save}
        </Button>
        {workflow.owner_name && (
          <Text size="sm" c="dimmed">
            {t.sharing.owner(workflow.owner_name)}
          </Text>
        )}
        {workflow.actor !== workflow.owner && workflow.actor_name && (
          <Text size="sm" c="dimmed">
            {t.sharing.actor(workflow.actor_name)}
          </Text>
        )}
      </Group>
      <SharingCard workflowId={workflow.workflow_id} shares={shares} canShare={workflow.access === "owner"} onSaved={revalidate} />
      <Title order={3}>{t.history}</Title>
      <RunHistory
        runs={runs}
        open={{ id: openRunId, run: openRun?.run_id === openRunId ? openRun : null }}
        onOpen={openRunOf}
        canRetry={canEdit}
        onRetried={revalidate}
      />
      {runForm && <RunDialog workflowId={workflow.workflow_id} form={runForm} onClose={() => setRunForm(null)} onStarted={revalidate} />}
    </Stack>
  );
}
