import { useRevalidator } from "@remix-run/react";
import { useState } from "react";
import type { FormField } from "../../../functions/udwf/schemas";
import { ru } from "../../i18n/ru";
import { ApiError } from "../../lib/api";
import { patchWorkflow, saveSetup, type Setup, type Workflow } from "../../lib/automations-api";
import { showError, showInfo } from "../../lib/notify";
import type { ConditionValue } from "./ConditionRow";
import type { StepValue } from "./StepsEditor";
import type { TriggerValue } from "./TriggerEditor";

/** The server's validation details, by field path ("steps.1.params.tag_id"). */
function detailsOf(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError)) return {};
  const details = (err.envelope?.details ?? []) as { field: string; message: string }[];
  return Object.fromEntries(details.map((d) => [d.field, d.message]));
}

/** The errors under one part of the setup, by their path inside it ("trigger." → "group_id"). */
export const errorsUnder = (errors: Record<string, string>, prefix: string) =>
  Object.fromEntries(
    Object.entries(errors)
      .filter(([k]) => k.startsWith(prefix))
      .map(([k, v]) => [k.slice(prefix.length), v]),
  );

/**
 * The automation's edits until «Сохранить»: name, description, trigger, conditions and steps, and what the server
 * refused of them. They start from the saved workflow; the page is keyed by it, so another one starts afresh.
 */
export function useWorkflowDraft(workflow: Workflow) {
  const { revalidate } = useRevalidator();
  const [name, setName] = useState(workflow.name);
  const [description, setDescription] = useState(workflow.description);
  const [trigger, setTrigger] = useState<TriggerValue>((workflow.trigger as TriggerValue | null) ?? { type: "asset.uploaded" });
  const [conditions, setConditions] = useState<ConditionValue[]>(workflow.conditions as unknown as ConditionValue[]);
  const [steps, setSteps] = useState<StepValue[]>(workflow.steps);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

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
      showInfo(ru.automations.saved);
      revalidate();
    } catch (err) {
      setErrors(detailsOf(err));
      showError(err);
    } finally {
      setSaving(false);
    }
  };

  return {
    name,
    setName,
    description,
    setDescription,
    trigger,
    setTrigger,
    conditions,
    setConditions,
    steps,
    setSteps,
    errors,
    saving,
    save,
  };
}
