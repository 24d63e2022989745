import { Button, Group, NumberInput, Stack, Table, Text, Textarea, TextInput } from "@mantine/core";
import { useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { createLicence, deleteLicence, type Licence } from "../../lib/shop-api";

const t = ru.shop.admin;

/** Licences: name, terms, how long the delivery link works. */
export function LicencesAdmin({ licences }: { licences: Licence[] }) {
  const { revalidate } = useRevalidator();
  const [name, setName] = useState("");
  const [terms, setTerms] = useState("");
  const [days, setDays] = useState<number | string>("");
  const add = async () => {
    const made = await runAction(() => createLicence({ name, terms, duration_days: typeof days === "number" ? days : null }));
    if (!made) return;
    setName("");
    setTerms("");
    setDays("");
    revalidate();
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
      <Group align="end" gap="xs">
        <TextInput label={t.name} value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <Textarea
          label={t.terms}
          value={terms}
          onChange={(e) => setTerms(e.currentTarget.value)}
          autosize
          minRows={1}
          style={{ flex: 1 }}
        />
        <NumberInput label={t.durationDays} description={t.durationHint} min={1} value={days} onChange={setDays} w={160} />
        <Button onClick={add}>{t.newLicence}</Button>
      </Group>
    </Stack>
  );
}
