import { Box, Button, Group, Select, Stack, Text } from "@mantine/core";
import { useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { changeTaxon, createTaxonPath, deleteTaxon, type Taxon } from "../../lib/metadata-api";
import { showInfo } from "../../lib/notify";
import { ConfirmModal } from "../mam/dialogs";
import { NameForm } from "./NameForm";
import { taxonNameBody, taxonPathBody } from "./rules";
import { taxonRows } from "./taxon-tree";

const t = ru.metadata.taxonomy;
const ROOT = "__root__";

type Editing = { id: string; mode: "child" | "rename" | "move" } | null;

/** The taxonomy tab: the whole tree, edited in place (add a child, rename, move under another taxon, delete). */
export function TaxonomyPanel({ tree }: { tree: Taxon[] }) {
  const { revalidate } = useRevalidator();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Taxon | null>(null);
  const rows = taxonRows(tree);
  const close = () => {
    setEditing(null);
    revalidate();
  };
  const done = (ok: unknown) => {
    if (ok !== undefined) close();
  };
  // The name forms' calls throw a refusal to the form, which shows it under the field or in the toast.
  const createPath = async (path: string) => {
    await createTaxonPath(path);
    showInfo(t.created);
    close();
  };
  return (
    <Stack gap="md">
      <NameForm
        field="path"
        schema={taxonPathBody}
        label={t.path}
        placeholder={t.pathHint}
        width={360}
        submitLabel={ru.metadata.create}
        onSubmit={createPath}
      />
      {rows.length === 0 && <Text c="dimmed">{t.empty}</Text>}
      <Stack gap={4} role="tree" aria-label={ru.metadata.tabs.taxonomy}>
        {rows.map(({ node, depth, path }) => {
          const mode = editing?.id === node.taxon_id ? editing.mode : null;
          // A taxon cannot move under itself or its own descendants.
          const targets = rows.filter((r) => r.path !== path && !r.path.startsWith(`${path}/`));
          return (
            <Box key={node.taxon_id} pl={depth * 24} role="treeitem" aria-level={depth + 1} aria-label={node.name}>
              <Group gap="xs" wrap="nowrap">
                {mode === "rename" ? (
                  <NameForm
                    field="name"
                    schema={taxonNameBody}
                    initial={node.name}
                    submitLabel={ru.metadata.save}
                    onSubmit={async (name) => {
                      await changeTaxon(node.taxon_id, { name });
                      close();
                    }}
                    onCancel={() => setEditing(null)}
                  />
                ) : (
                  <Text size="sm" fw={depth === 0 ? 600 : 400} miw={160}>
                    {node.name}
                  </Text>
                )}
                {mode === null && (
                  <Group gap={4}>
                    <Button size="compact-xs" variant="subtle" onClick={() => setEditing({ id: node.taxon_id, mode: "child" })}>
                      {t.addChild}
                    </Button>
                    <Button size="compact-xs" variant="subtle" onClick={() => setEditing({ id: node.taxon_id, mode: "rename" })}>
                      {ru.metadata.rename}
                    </Button>
                    <Button size="compact-xs" variant="subtle" onClick={() => setEditing({ id: node.taxon_id, mode: "move" })}>
                      {t.move}
                    </Button>
                    <Button size="compact-xs" variant="subtle" color="red" onClick={() => setDeleting(node)}>
                      {ru.metadata.delete}
                    </Button>
                  </Group>
                )}
              </Group>
              {mode === "child" && (
                <Box pl={24} mt={4}>
                  <NameForm
                    field="name"
                    schema={taxonNameBody}
                    placeholder={t.childName}
                    submitLabel={ru.metadata.add}
                    onSubmit={async (name) => createPath(`${path}/${name}`)}
                    onCancel={() => setEditing(null)}
                  />
                </Box>
              )}
              {mode === "move" && (
                <Group pl={24} mt={4} gap="xs">
                  <Select
                    size="xs"
                    aria-label={t.moveTo}
                    placeholder={t.moveTo}
                    searchable
                    w={320}
                    data={[{ value: ROOT, label: t.root }, ...targets.map((r) => ({ value: r.node.taxon_id, label: r.path }))]}
                    onChange={async (parent) => {
                      if (parent) done(await runAction(() => changeTaxon(node.taxon_id, { parent: parent === ROOT ? null : parent })));
                    }}
                  />
                  <Button size="xs" variant="default" onClick={() => setEditing(null)}>
                    {ru.metadata.cancel}
                  </Button>
                </Group>
              )}
            </Box>
          );
        })}
      </Stack>
      <ConfirmModal
        opened={deleting !== null}
        text={deleting ? t.deleteText(deleting.name) : ""}
        confirmLabel={ru.metadata.delete}
        onConfirm={async () => {
          if (deleting) done(await runAction(() => deleteTaxon(deleting.taxon_id)));
        }}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
