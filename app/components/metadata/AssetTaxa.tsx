import { Badge, Button, CloseButton, Group, Modal, NavLink, ScrollArea, Stack, Text } from "@mantine/core";
import { useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { fileUnder, type Taxon, taxonomyTree, unfile } from "../../lib/metadata-api";

const t = ru.metadata.asset;

/**
 * The taxa the asset is filed under, as chips; "Отнести к разделу" opens the taxonomy as a tree (loaded when the
 * dialog opens) and a click files the asset there. Without update: chips only.
 */
export function AssetTaxa({ assetId, taxa, canEdit }: { assetId: string; taxa: Taxon[]; canEdit: boolean }) {
  const { revalidate } = useRevalidator();
  const [tree, setTree] = useState<Taxon[] | null>(null);
  const open = async () => setTree((await runAction(() => taxonomyTree())) ?? null);
  const file = async (taxonId: string) => {
    if ((await runAction(() => fileUnder(taxonId, assetId))) === undefined) return;
    setTree(null);
    revalidate();
  };
  const remove = async (taxonId: string) => {
    if ((await runAction(() => unfile(taxonId, assetId))) !== undefined) revalidate();
  };
  const filed = new Set(taxa.map((x) => x.taxon_id));
  return (
    <Stack gap={6}>
      <Group gap={6}>
        {taxa.length === 0 && (
          <Text size="sm" c="dimmed">
            {t.noTaxa}
          </Text>
        )}
        {taxa.map((x) => (
          <Badge
            key={x.taxon_id}
            variant="outline"
            size="lg"
            rightSection={canEdit ? <CloseButton size="xs" aria-label={t.taxonRemove(x.name)} onClick={() => remove(x.taxon_id)} /> : null}
          >
            {x.name}
          </Badge>
        ))}
        {canEdit && (
          <Button size="xs" variant="light" onClick={open}>
            {t.fileUnder}
          </Button>
        )}
      </Group>
      <Modal opened={tree !== null} onClose={() => setTree(null)} title={t.pickTaxon} centered>
        <ScrollArea.Autosize mah={420}>
          {/* The tree comes flat, each taxon after its parent, with its depth. */}
          <nav aria-label={t.pickTaxon}>
            {(tree ?? []).map((x) => (
              <NavLink
                key={x.taxon_id}
                label={x.name}
                pl={(x.depth - 1) * 18 + 8}
                disabled={filed.has(x.taxon_id)}
                onClick={() => file(x.taxon_id)}
              />
            ))}
          </nav>
        </ScrollArea.Autosize>
      </Modal>
    </Stack>
  );
}
