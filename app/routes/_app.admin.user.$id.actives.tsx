import { Text } from "@mantine/core";
import { ru } from "../i18n/ru";
import { pageMeta } from "../lib/meta";

export const meta = pageMeta(ru.pages.userActives);

export default function UserActivesTab() {
  return <Text c="dimmed">{ru.pages.placeholder}</Text>;
}
