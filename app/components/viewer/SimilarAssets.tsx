import { Anchor, Group, Loader, Stack, Text, Title } from "@mantine/core";
import { Await, Link } from "@remix-run/react";
import { Suspense } from "react";
import { ru } from "../../i18n/ru";
import { ApiError } from "../../lib/api";
import { type SimilarAnswer, similarTo } from "../../lib/search-api";
import { Thumb } from "../mam/Thumb";

const t = ru.search;

export type SimilarShown = { state: "off"; text: string } | ({ state: "done" } & SimilarAnswer);

/**
 * The asset's neighbours as «Похожие» shows them; never rejects. The viewer's loader starts it and does not wait
 * for it, so the file shows first.
 */
export function loadSimilar(assetId: string): Promise<SimilarShown> {
  return similarTo(assetId).then(
    (answer): SimilarShown => ({
      state: "done",
      by: answer.by,
      items: answer.items.filter((i) => i.el_type === "asset" && i.el_id !== assetId),
    }),
    // Neither a model nor a fingerprint to compare by: said plainly, the viewer itself is unaffected.
    (error): SimilarShown => ({ state: "off", text: error instanceof ApiError && error.status === 503 ? t.semanticOff : t.similarFailed }),
  );
}

/**
 * «Похожие» under the viewed file (docs/decisions/058-duplicates-and-look-alikes.md): neighbours by meaning when an
 * embeddings model is configured, else by the picture's perceptual fingerprint, saying which. Each opens in the
 * viewer within the same group, so «назад» still leads where the user came from.
 */
export function SimilarAssets({ similar, groupId }: { similar: Promise<SimilarShown>; groupId: string }) {
  return (
    <Suspense fallback={<SimilarList groupId={groupId} shown={null} />}>
      <Await resolve={similar}>{(shown) => <SimilarList groupId={groupId} shown={shown} />}</Await>
    </Suspense>
  );
}

function SimilarList({ shown, groupId }: { shown: SimilarShown | null; groupId: string }) {
  return (
    <Stack gap={4} role="region" aria-label={t.similar} data-testid="viewer-similar">
      <Group gap="xs" align="baseline">
        <Title order={5}>{t.similar}</Title>
        {shown?.state === "done" && (
          <Text size="xs" c="dimmed" data-testid="similar-by">
            {t.similarBy[shown.by]}
          </Text>
        )}
      </Group>
      {shown === null ? (
        <Loader size="xs" aria-label={t.similarLoading} />
      ) : shown.state === "off" ? (
        <Text size="sm" c="dimmed">
          {shown.text}
        </Text>
      ) : shown.items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t.similarNone}
        </Text>
      ) : (
        <Group gap="sm" wrap="nowrap" role="list" aria-label={t.similar} style={{ overflowX: "auto" }}>
          {shown.items.map((item) => (
            <Stack key={item.el_id} gap={2} align="center" role="listitem" data-similar={item.el_id} style={{ width: 112, flexShrink: 0 }}>
              <Thumb type="asset" mime={item.mime ?? null} preview={item.preview} size={96} />
              <Anchor component={Link} to={`/mam/${groupId}/asset/${item.el_id}`} size="xs" lineClamp={2} ta="center">
                {item.name}
              </Anchor>
              {"distance" in item && typeof item.distance === "number" && (
                <Text size="xs" c="dimmed">
                  {t.similarDistance(item.distance)}
                </Text>
              )}
            </Stack>
          ))}
        </Group>
      )}
    </Stack>
  );
}
