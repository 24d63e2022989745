import { Button, Group, Switch, Title } from "@mantine/core";
import { useNavigate, useRevalidator } from "@remix-run/react";
import { ru } from "../../i18n/ru";
import { deleteWorkflow, getTriggerForm, setEnabled, type TriggerForm, type Workflow } from "../../lib/automations-api";
import { showError } from "../../lib/notify";

const t = ru.automations;

/**
 * The automation's name and what is done to it as a whole: on/off, «Запустить» (its trigger form loads on the
 * click, decision 063), and delete for its owner.
 */
export function WorkflowHeader({ workflow, onRunForm }: { workflow: Workflow; onRunForm: (form: TriggerForm) => void }) {
  const { revalidate } = useRevalidator();
  const navigate = useNavigate();
  const canEdit = workflow.access !== "view";
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
    <Group justify="space-between">
      <Title order={2}>{workflow.name}</Title>
      <Group>
        <Switch label={t.enabled} checked={workflow.enabled} disabled={!canEdit} onChange={(e) => toggle(e.currentTarget.checked)} />
        <Button
          variant="default"
          onClick={() => getTriggerForm(workflow.workflow_id).then(onRunForm, showError)}
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
  );
}
