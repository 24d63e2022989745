import { Text } from "@mantine/core";
import { useParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { PagePlaceholder } from "../components/PagePlaceholder";
import { UploadDropzone } from "../components/uploads/UploadDropzone";
import { ru } from "../i18n/ru";
import { api } from "../lib/api";
import { pageMeta } from "../lib/meta";
import { showError } from "../lib/notify";

export const meta = pageMeta(ru.pages.group);

/** Until the group browser lands: the group's id inside the upload drop zone, offered when the caller may create. */
export default function GroupPage() {
  const { idGroup = "" } = useParams();
  const [canUpload, setCanUpload] = useState(false);

  useEffect(() => {
    setCanUpload(false);
    api<{ acl: string[] }>(`/group/get/${idGroup}`)
      .then((group) => setCanUpload(group.acl.includes("create") || group.acl.includes("superuser")))
      .catch(showError);
  }, [idGroup]);

  return (
    <PagePlaceholder title={ru.pages.group}>
      <UploadDropzone groupId={idGroup} canUpload={canUpload} onUploaded={() => undefined}>
        <Text c="dimmed" size="sm">
          {idGroup}
        </Text>
      </UploadDropzone>
    </PagePlaceholder>
  );
}
