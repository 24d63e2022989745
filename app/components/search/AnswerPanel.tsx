import { Anchor, Card, CloseButton, Group, List, Stack, Text, Title } from "@mantine/core";
import { Link } from "@remix-run/react";
import { ru } from "../../i18n/ru";
import type { RagAnswer } from "../../lib/search-api";
import { resultHref } from "./Results";
import { Snippet } from "./Snippet";

const t = ru.search;

/** The answer to the query as a question, with numbered citations that open their assets. */
export function AnswerPanel({ answer, onClose }: { answer: RagAnswer; onClose: () => void }) {
  return (
    <Card withBorder padding="sm" role="region" aria-label={t.answerTitle}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={5}>{t.answerTitle}</Title>
          <CloseButton aria-label={t.close} onClick={onClose} />
        </Group>
        {answer.answer ? (
          <>
            <Text data-answer>{answer.answer}</Text>
            <Text size="xs" c="dimmed">
              {t.answerExtractive}
            </Text>
            <List type="ordered" size="sm">
              {answer.citations.map((c) => (
                <List.Item key={c.el_id}>
                  <Anchor component={Link} to={resultHref({ el_id: c.el_id, el_type: "asset" })}>
                    {c.name}
                  </Anchor>
                  <Snippet html={c.snippet} />
                </List.Item>
              ))}
            </List>
          </>
        ) : (
          <Text c="dimmed">{t.answerNone}</Text>
        )}
      </Stack>
    </Card>
  );
}
