import { Badge, Button, Group, Stack, Switch, Table, Text } from "@mantine/core";
import { Link, useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { deleteProduct, publishProduct, type Licence, type Product } from "../../lib/shop-api";
import { ProductFormModal } from "./ProductFormModal";
import { DataTable } from "../ui/DataTable";
import { DangerButton, RowActions } from "../ui/RowActions";

const t = ru.shop.admin;

/** Every product, published or not: create, edit offers, publish, delete. */
export function ProductsAdmin({ products, licences }: { products: Product[]; licences: Licence[] }) {
  const { revalidate } = useRevalidator();
  const [editing, setEditing] = useState<Product | "new" | null>(null);
  const saved = () => {
    setEditing(null);
    revalidate();
  };
  return (
    <Stack gap="sm">
      <Group>
        <Button onClick={() => setEditing("new")} disabled={!licences.length}>
          {t.newProduct}
        </Button>
        {!licences.length && (
          <Text size="sm" c="dimmed">
            {t.noLicences}
          </Text>
        )}
      </Group>
      <DataTable rows={products}>
        {(p) => (
          <Table.Tr key={p.product_id} data-testid="admin-product">
            <Table.Td>
              <Link to={`/shop/product/${p.product_id}`}>{p.title}</Link>
            </Table.Td>
            <Table.Td>
              <Badge variant="light">{t.kind[p.group_id ? "group" : "asset"]}</Badge>
            </Table.Td>
            <Table.Td>{t.offersCount(p.offers.length)}</Table.Td>
            <Table.Td>
              <Switch
                label={t.published}
                checked={p.published}
                onChange={async (e) => {
                  await runAction(() => publishProduct(p.product_id, e.currentTarget.checked));
                  revalidate();
                }}
              />
            </Table.Td>
            <RowActions justify="flex-end">
              <Button size="xs" variant="subtle" onClick={() => setEditing(p)}>
                {t.edit}
              </Button>
              <DangerButton
                onClick={async () => {
                  await runAction(() => deleteProduct(p.product_id));
                  revalidate();
                }}
              >
                {t.delete}
              </DangerButton>
            </RowActions>
          </Table.Tr>
        )}
      </DataTable>
      {editing && (
        <ProductFormModal
          product={editing === "new" ? null : editing}
          licences={licences}
          onClose={() => setEditing(null)}
          onSaved={saved}
        />
      )}
    </Stack>
  );
}
