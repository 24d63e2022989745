/** What a task template can do; the transcoder has one operation per class (transcoder/ops/). No imports: db/schema and the browser both load it. */
export const operationClasses = [
  "metadata",
  "preview",
  "proxy",
  "audio_proxy",
  "document_proxy",
  "watermark",
  "text",
  "transcribe",
] as const;
