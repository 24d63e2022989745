import { useNavigate, useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { ApiError } from "../../lib/api";
import { deleteTemplate, type FieldTemplate } from "../../lib/metadata-api";
import { showError, showInfo } from "../../lib/notify";
import { ConfirmModal } from "../mam/dialogs";

const t = ru.metadata.templates;

/**
 * Deleting a template: first a plain question; when the server answers 409 (the template has values), a
 * second one that names the cost, and only then DELETE ?force=true. `after` is where to go once it is gone
 * (the editor leaves for the list; the list just reloads).
 */
export function DeleteTemplate({ template, onClose, after }: { template: FieldTemplate | null; onClose: () => void; after?: string }) {
  const { revalidate } = useRevalidator();
  const navigate = useNavigate();
  const [withValues, setWithValues] = useState<FieldTemplate | null>(null);
  const done = () => {
    showInfo(ru.metadata.deleted);
    if (after) navigate(after);
    else revalidate();
  };
  const tryDelete = async (tpl: FieldTemplate) => {
    try {
      await deleteTemplate(tpl.field_def_id);
      done();
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        setWithValues(tpl);
        return;
      }
      showError(error);
      throw error;
    }
  };
  const forceDelete = async (tpl: FieldTemplate) => {
    try {
      await deleteTemplate(tpl.field_def_id, true);
      done();
    } catch (error) {
      showError(error);
      throw error;
    }
  };
  return (
    <>
      <ConfirmModal
        opened={template !== null}
        text={template ? t.deleteText(template.field_def_name) : ""}
        confirmLabel={ru.metadata.delete}
        onConfirm={() => (template ? tryDelete(template) : undefined)}
        onClose={onClose}
      />
      <ConfirmModal
        opened={withValues !== null}
        text={withValues ? t.forceText(withValues.field_def_name) : ""}
        confirmLabel={t.forceConfirm}
        onConfirm={() => (withValues ? forceDelete(withValues) : undefined)}
        onClose={() => setWithValues(null)}
      />
    </>
  );
}
