import { Button, Group, NumberInput, Stack, Table, Text, Textarea, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useRevalidator } from "@remix-run/react";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { licenceBody } from "../../../shared/shop/schemas";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { applyServerErrors } from "../../lib/form-errors";
import { createLicence, deleteLicence, type Licence } from "../../lib/shop-api";

const t = ru.shop.admin;

type Values = { name: string; terms: string; duration_days: number | string };
/** The payload of POST /api/shop/licences: no days typed is no limit. */
const payloadOf = (v: Values) => ({ ...v, duration_days: typeof v.duration_days === "number" ? v.duration_days : null });
const rules = zod4Resolver(licenceBody);

/** Licences: name, terms, how long the delivery link works. */
export function LicencesAdmin({ licences }: { licences: Licence[] }) {
  const { revalidate } = useRevalidator();
  const form = useForm<Values>({ initialValues: { name: "", terms: "", duration_days: "" }, validate: (v) => rules(payloadOf(v)) });
  const add = async (v: Values) => {
    try {
      await createLicence(payloadOf(v));
      form.reset();
      revalidate();
    } catch (err) {
      applyServerErrors(form, err);
    }
  };
  return (
    <Stack gap="sm">
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t.name}</Table.Th>
            <Table.Th>{t.terms}</Table.Th>
            <Table.Th>{t.durationDays}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {licences.map((l) => (
            <Table.Tr key={l.licence_id} data-testid="admin-licence">
              <Table.Td>{l.name}</Table.Td>
              <Table.Td>
                <Text size="sm" lineClamp={2}>
                  {l.terms}
                </Text>
              </Table.Td>
              <Table.Td>{ru.shop.duration(l.duration_days)}</Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  onClick={async () => {
                    await runAction(() => deleteLicence(l.licence_id));
                    revalidate();
                  }}
                >
                  {t.delete}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <form onSubmit={form.onSubmit(add)} noValidate>
        <Group align="end" gap="xs">
          <TextInput label={t.name} {...form.getInputProps("name")} />
          <Textarea label={t.terms} autosize minRows={1} style={{ flex: 1 }} {...form.getInputProps("terms")} />
          <NumberInput label={t.durationDays} description={t.durationHint} min={1} w={160} {...form.getInputProps("duration_days")} />
          <Button type="submit">{t.newLicence}</Button>
        </Group>
      </form>
    </Stack>
  );
}
