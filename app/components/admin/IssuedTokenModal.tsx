import { Button, Code, CopyButton, Group, Modal, Stack, Text } from "@mantine/core";
import { ru } from "../../i18n/ru";
import type { IssuedToken } from "../../lib/admin-api";

const t = ru.admin.tokens;

/** The new token's secret, shown this once (only its hash is kept), with a copy button. */
export function IssuedTokenModal({ token, onClose }: { token: IssuedToken | null; onClose: () => void }) {
  return (
    <Modal opened={token !== null} onClose={onClose} title={t.issuedTitle} size="lg" closeOnClickOutside={false}>
      {token && (
        <Stack gap="sm">
          <Text size="sm">{t.issuedText}</Text>
          <Code block data-testid="issued-token" style={{ wordBreak: "break-all", whiteSpace: "pre-wrap" }}>
            {token.token}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={token.token} timeout={1500}>
              {({ copied, copy }) => (
                <Button variant="light" color={copied ? "teal" : undefined} onClick={copy}>
                  {copied ? t.copied : t.copy}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose}>{t.done}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
