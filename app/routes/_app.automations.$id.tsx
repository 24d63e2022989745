import { Alert, Button, Card, Group, Stack, Text, Textarea, TextInput, Title } from "@mantine/core";
import { useLoaderData, useRevalidator, useSearchParams } from "@remix-run/react";
import { useMemo, useState } from "react";
import { RunDialog } from "../components/automations/RunDialog";
import { RunHistory } from "../components/automations/RunHistory";
import { SharingCard } from "../components/automations/SharingCard";
import { StepsEditor } from "../components/automations/StepsEditor";
import { TriggerEditor } from "../components/automations/TriggerEditor";
import { ru } from "../i18n/ru";
import { ApiError } from "../lib/api";
import { getCatalogue, getRun, getWorkflow, isLive, listRuns, listShares, listTags, type TriggerForm } from "../lib/automations-api";
import { pageMeta } from "../lib/meta";
import { screenLoader, useRevalidateEvery } from "../lib/route-data";
import { BackLink } from "../components/ui/BackLink";
import { SectionCard } from "../components/automations/SectionCard";
import { ConditionsEditor } from "../components/automations/ConditionsEditor";
import { errorsUnder, useWorkflowDraft } from "../components/automations/use-workflow-draft";
import { WorkflowHeader } from "../components/automations/WorkflowHeader";

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
  const { form, saving, save } = useWorkflowDraft(workflow);
  const { errors } = form;
  const [runForm, setRunForm] = useState<TriggerForm | null>(null);
  const live = useMemo(() => runs.items.some((r) => isLive(r.status)), [runs]);
  // The history refreshes every 2 s while a run is going, and every 10 s otherwise (runs started by events).
  useRevalidateEvery(live ? 2000 : 10_000);

  return (
    <Stack gap="md">
      <BackLink to="/automations" label={t.back} />
      <WorkflowHeader workflow={workflow} onRunForm={setRunForm} />
      <Card withBorder>
        <Stack gap="xs">
          <TextInput label={t.name} {...form.getInputProps("name")} />
          <Textarea label={t.description} autosize minRows={1} {...form.getInputProps("description")} />
        </Stack>
      </Card>
      <SectionCard title={t.trigger}>
        <TriggerEditor
          value={form.values.trigger}
          onChange={(v) => form.setFieldValue("trigger", v)}
          tags={tags}
          errors={errorsUnder(errors, "trigger.")}
          hookUrl={workflow.hook_url}
        />
      </SectionCard>
      <SectionCard title={t.conditions}>
        <ConditionsEditor
          value={form.values.conditions}
          onChange={(v) => form.setFieldValue("conditions", v)}
          tags={tags}
          errorOf={(i) => Object.values(errorsUnder(errors, `conditions.${i}.`))[0]}
        />
      </SectionCard>
      <SectionCard title={t.steps}>
        <StepsEditor
          value={form.values.steps}
          onChange={(v) => form.setFieldValue("steps", v)}
          catalogue={catalogue}
          tags={tags}
          errors={errorsUnder(errors, "steps.")}
        />
      </SectionCard>
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
        <Button onClick={() => save()} loading={saving} disabled={!canEdit}>
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
