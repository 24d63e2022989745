import { useForm } from "@mantine/form";
import { useRevalidator } from "@remix-run/react";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { type ReactNode, useState } from "react";
import { createBody, type FormField } from "../../../shared/udwf/schemas";
import { ru } from "../../i18n/ru";
import { patchWorkflow, saveSetup, type Setup, type Workflow } from "../../lib/automations-api";
import { applyServerErrors } from "../../lib/form-errors";
import { showInfo } from "../../lib/notify";
import type { ConditionValue } from "./ConditionRow";
import type { StepValue } from "./StepsEditor";
import type { TriggerValue } from "./TriggerEditor";

export type Draft = { name: string; description: string; trigger: TriggerValue; conditions: ConditionValue[]; steps: StepValue[] };

/** The errors under one part of the setup, by their path inside it ("trigger." → "group_id"); the form's are messages. */
export const errorsUnder = (errors: Record<string, ReactNode>, prefix: string) =>
  Object.fromEntries(
    Object.entries(errors)
      .filter(([k]) => k.startsWith(prefix))
      .map(([k, v]) => [k.slice(prefix.length), v as string]),
  );

/**
 * The automation's edits until «Сохранить», as a form: name, description, trigger, conditions and steps. They start
 * from the saved workflow; the page is keyed by it, so another one starts afresh. The browser checks the name and
 * description (POST /api/udwf/workflow's rule); the setup's rules need the server (the objects it names must exist),
 * whose refusals land on the paths it names ("steps.1.params.tag_id").
 */
export function useWorkflowDraft(workflow: Workflow) {
  const { revalidate } = useRevalidator();
  const form = useForm<Draft>({
    initialValues: {
      name: workflow.name,
      description: workflow.description,
      trigger: (workflow.trigger as TriggerValue | null) ?? { type: "asset.uploaded" },
      conditions: workflow.conditions as unknown as ConditionValue[],
      steps: workflow.steps,
    },
    validate: zod4Resolver(createBody),
  });
  const [saving, setSaving] = useState(false);

  const save = form.onSubmit(async ({ name, description, trigger, conditions, steps }) => {
    setSaving(true);
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
      applyServerErrors(form, err);
    } finally {
      setSaving(false);
    }
  });

  return { form, saving, save };
}
