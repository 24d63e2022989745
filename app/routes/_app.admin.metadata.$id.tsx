import { useLoaderData } from "@remix-run/react";
import { TemplateEditor } from "../components/metadata/TemplateEditor";
import { ru } from "../i18n/ru";
import { getTemplate, listLists, listRecords, listTemplates } from "../lib/metadata-api";
import { pageMeta } from "../lib/meta";
import { screenLoader } from "../lib/route-data";

export const meta = pageMeta(ru.pages.metadataItem);

/** The template, the others (struct sub-fields), the lists (text choices) and the records of the list it picks from. */
export const clientLoader = screenLoader(async ({ params, request }) => {
  const id = params.id ?? "";
  const [template, templates, lists] = await Promise.all([
    getTemplate(id, request.signal),
    listTemplates(request.signal),
    listLists(request.signal),
  ]);
  const listId = template.field_type === "text" && typeof template.field_setup.list_id === "string" ? template.field_setup.list_id : null;
  const choices: Record<string, string[]> = listId ? { [listId]: (await listRecords(listId, request.signal)).map((r) => r.rec_data) } : {};
  return { template, templates, lists, choices };
});

export { RouteError as ErrorBoundary } from "../components/RouteError";

/** /admin/metadata/{id}: the field template editor. The key remounts the form when another template opens. */
export default function MetadataItemPage() {
  const data = useLoaderData<typeof clientLoader>();
  return <TemplateEditor key={data.template.field_def_id} {...data} />;
}
