import { Anchor, Button, Group, Loader, Modal, Radio, Stack, Text, Title } from "@mantine/core";
import { Await, Link } from "@remix-run/react";
import { Suspense, useState } from "react";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { showError, showInfo } from "../../lib/notify";
import { availableProfiles, availableTasks, enqueueTask, type TaskTemplate } from "./asset-actions-api";

const t = ru.assetActions;

/** A template and the assets (of those asked about) it applies to. */
interface Offer {
  template: TaskTemplate;
  profile: boolean;
  assets: string[];
}

/**
 * For each asset the templates the server says apply to it (available-tasks with the asset) and the proxy profiles
 * among them (available-profiles); merged into one list, each with the assets it fits.
 */
async function offersFor(assetIds: string[]): Promise<Offer[]> {
  const offers = new Map<string, Offer>();
  for (const id of assetIds) {
    const [tasks, profiles] = await Promise.all([availableTasks(id), availableProfiles(id)]);
    const profileIds = new Set(profiles.map((p) => p.id));
    for (const template of [...profiles, ...tasks.filter((x) => !profileIds.has(x.id))]) {
      const offer = offers.get(template.id) ?? { template, profile: profileIds.has(template.id), assets: [] };
      offer.assets.push(id);
      offers.set(template.id, offer);
    }
  }
  return [...offers.values()];
}

/** What «Запустить задачу» offers for `assetIds`, loaded by the click that opens it; a failure is shown and offers nothing. */
export type TaskOffers = { assetIds: string[]; offers: Promise<Offer[]> };

export function loadTaskOffers(assetIds: string[]): TaskOffers {
  return {
    assetIds,
    offers: offersFor(assetIds).catch((error) => {
      showError(error);
      return [];
    }),
  };
}

/**
 * «Запустить задачу»: the task templates available for the asset (or each asset of a selection); the chosen one is
 * started with enqueue-task on every asset it applies to, and shows in /jobs and in the asset's history. Open while
 * `task` is set (loadTaskOffers).
 */
export function RunTaskModal({ task, onClose }: { task: TaskOffers | null; onClose: () => void }) {
  return (
    <Modal opened={task !== null} onClose={onClose} title={t.runTask} centered>
      {task && (
        <Suspense fallback={<TaskChoice assetIds={task.assetIds} offers={null} onClose={onClose} />}>
          <Await resolve={task.offers}>{(offers) => <TaskChoice assetIds={task.assetIds} offers={offers} onClose={onClose} />}</Await>
        </Suspense>
      )}
    </Modal>
  );
}

function TaskChoice({ assetIds, offers, onClose }: { assetIds: string[]; offers: Offer[] | null; onClose: () => void }) {
  const [chosen, setChosen] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const start = async () => {
    const offer = offers?.find((o) => o.template.id === chosen);
    if (!offer) return;
    setBusy(true);
    let started = 0;
    for (const id of offer.assets) if (await runAction(() => enqueueTask(id, offer.template.id))) started++;
    setBusy(false);
    if (started) {
      showInfo(t.started(started));
      onClose();
    }
  };

  const many = assetIds.length > 1;
  const group = (profile: boolean) => (offers ?? []).filter((o) => o.profile === profile);
  const section = (title: string, list: Offer[]) =>
    list.length > 0 && (
      <Stack gap={4}>
        <Title order={6}>{title}</Title>
        {list.map((o) => (
          <Radio
            key={o.template.id}
            value={o.template.id}
            label={o.template.name}
            description={many ? t.appliesTo(o.assets.length, assetIds.length) : o.template.operation_class}
          />
        ))}
      </Stack>
    );

  return (
    <Stack>
      {many && <Text size="sm">{t.runTaskFor(assetIds.length)}</Text>}
      {offers === null ? (
        <Loader size="sm" />
      ) : offers.length === 0 ? (
        <Text c="dimmed">{t.noTasks}</Text>
      ) : (
        <Radio.Group value={chosen} onChange={setChosen} aria-label={t.runTask}>
          <Stack>
            {section(t.profiles, group(true))}
            {section(t.tasks, group(false))}
          </Stack>
        </Radio.Group>
      )}
      <Group justify="space-between">
        <Anchor component={Link} to="/jobs" size="sm">
          {t.openJobs}
        </Anchor>
        <Group gap="xs">
          <Button variant="default" onClick={onClose}>
            {t.cancel}
          </Button>
          <Button onClick={() => void start()} disabled={!chosen} loading={busy}>
            {t.start}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
