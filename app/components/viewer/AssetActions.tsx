import { Button, FileButton, Group, Menu, Modal, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useLocation, useNavigate } from "@remix-run/react";
import { zod4Resolver } from "mantine-form-zod-resolver";
import type React from "react";
import { useEffect, useRef, useState } from "react";
import { z } from "zod";
import { startBody } from "../../../shared/uploads/schemas";
import { ru } from "../../i18n/ru";
import { runAction } from "../../lib/actions";
import { showInfo } from "../../lib/notify";

import { uploadQueue } from "../../lib/upload-client";
import { CopyToModal } from "../mam/CopyToModal";
import type { Asset } from "../mam/mam-api";

import { copyAssets } from "./asset-actions-api";
import { loadTaskOffers, RunTaskModal, type TaskOffers } from "./RunTaskModal";
import { VERSION_PARAM } from "./VersionSwitcher";
import { DialogActions } from "../ui/DialogActions";

const t = ru.assetActions;

/**
 * Queues a file as the asset's next version (spec 4: a new version's main variant is `initial`) and, if an older
 * version is on screen, goes back to the latest, where the new one will show.
 */
function useNewVersion(asset: Asset, groupId: string) {
  const navigate = useNavigate();
  const location = useLocation();
  return (file: File) => {
    uploadQueue().addInto(file, groupId, asset.asset_id);
    showInfo(t.newVersionQueued(file.name));
    const params = new URLSearchParams(location.search);
    if (params.has(VERSION_PARAM)) {
      params.delete(VERSION_PARAM);
      const search = params.toString();
      navigate(`${location.pathname}${search ? `?${search}` : ""}`, { replace: true });
    }
  };
}

/** A file dragged onto the open viewer becomes the asset's next version, as the «Новая версия» button's file does. */
export function useVersionDrop(asset: Asset, groupId: string) {
  const [over, setOver] = useState(false);
  const newVersion = useNewVersion(asset, groupId);
  const canUpdate = asset.asset_access.includes("update");
  const hasFiles = (event: React.DragEvent) => Array.from(event.dataTransfer.types).includes("Files");
  const props = canUpdate
    ? {
        onDragOver: (event: React.DragEvent) => {
          if (!hasFiles(event)) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = "copy";
          setOver(true);
        },
        onDragLeave: (event: React.DragEvent) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
        },
        onDrop: (event: React.DragEvent) => {
          if (!hasFiles(event)) return;
          event.preventDefault();
          setOver(false);
          const [file] = Array.from(event.dataTransfer.files);
          if (file) newVersion(file);
        },
      }
    : {};
  return { over, props };
}

/** Reloads the screen when an upload into this asset (a new version, a variant) completes. */
export function useAssetUploads(assetId: string, reload: () => void) {
  const reloadRef = useRef(reload);
  reloadRef.current = reload;
  useEffect(() => uploadQueue().onAssetUploaded(assetId, () => reloadRef.current()), [assetId]);
}

/** The variant's name as POST /api/upload/start checks it (required here: the dialog is for a named variant). */
const variantRules = z.object({ name: startBody.shape.variant_name.unwrap() });

/** «Добавить вариант»: a named file uploaded as an extra `untyped` variant of the version on screen. */
function AddVariantModal(props: { opened: boolean; asset: Asset; groupId: string; version: number; onClose: () => void }) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={t.addVariant} centered>
      {/* The modal mounts its content when it opens: each opening starts with no name and no file. */}
      <AddVariantForm {...props} />
    </Modal>
  );
}

function AddVariantForm(props: { asset: Asset; groupId: string; version: number; onClose: () => void }) {
  const form = useForm({ initialValues: { name: "", file: null as File | null }, validate: zod4Resolver(variantRules) });
  const { name, file } = form.values;
  const upload = form.onSubmit(({ name, file }) => {
    if (!file) return;
    const variantName = name.trim();
    uploadQueue().addInto(file, props.groupId, props.asset.asset_id, { version: props.version, variantType: "untyped", variantName });
    showInfo(t.variantQueued(variantName));
    props.onClose();
  });
  return (
    <form onSubmit={upload} noValidate>
      <Stack>
        <TextInput label={t.variantName} required data-autofocus maxLength={255} {...form.getInputProps("name")} />
        <Group gap="xs">
          <FileButton onChange={(f) => f && form.setFieldValue("file", f)}>
            {(p) => (
              <Button variant="light" {...p}>
                {t.variantPick}
              </Button>
            )}
          </FileButton>
          <Text size="sm" c={file ? undefined : "dimmed"} data-testid="variant-file">
            {file?.name ?? ""}
          </Text>
        </Group>
        <DialogActions cancelLabel={t.cancel} onCancel={props.onClose} label={t.variantUpload} disabled={!file || !name.trim()} />
      </Stack>
    </form>
  );
}

/**
 * The viewer's actions on the asset: «Новая версия» (the file chooser at once), «Добавить вариант», and «Ещё» with
 * «Копировать в…» and «Запустить задачу». Each shows only with the right the server will ask for.
 */
export function AssetActions(props: { asset: Asset; groupId: string; version: number | null }) {
  const { asset, groupId, version } = props;
  const [dialog, setDialog] = useState<"variant" | "copy" | null>(null);
  const [task, setTask] = useState<TaskOffers | null>(null);
  const newVersion = useNewVersion(asset, groupId);
  const access = asset.asset_access;
  const canUpdate = access.includes("update");
  const canCopy = access.includes("download");
  const canRun = access.includes("execute");

  const copy = async (target: string) => {
    const n = await runAction(() => copyAssets([asset.asset_id], target));
    if (n) {
      showInfo(t.copied(n));
      setDialog(null);
    }
  };

  return (
    <>
      {canUpdate && (
        <FileButton onChange={(file) => file && newVersion(file)}>
          {(p) => (
            <Button size="xs" variant="light" {...p}>
              {t.newVersion}
            </Button>
          )}
        </FileButton>
      )}
      {canUpdate && version !== null && (
        <Button size="xs" variant="subtle" onClick={() => setDialog("variant")}>
          {t.addVariant}
        </Button>
      )}
      {(canCopy || canRun) && (
        <Menu position="bottom-end">
          <Menu.Target>
            <Button size="xs" variant="default">
              {t.more}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {canCopy && <Menu.Item onClick={() => setDialog("copy")}>{t.copyTo}</Menu.Item>}
            {canRun && <Menu.Item onClick={() => setTask(loadTaskOffers([asset.asset_id]))}>{t.runTask}</Menu.Item>}
          </Menu.Dropdown>
        </Menu>
      )}
      {version !== null && (
        <AddVariantModal opened={dialog === "variant"} asset={asset} groupId={groupId} version={version} onClose={() => setDialog(null)} />
      )}
      <CopyToModal opened={dialog === "copy"} onCopy={copy} onClose={() => setDialog(null)} />
      <RunTaskModal task={task} onClose={() => setTask(null)} />
    </>
  );
}
