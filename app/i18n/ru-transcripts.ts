/** The viewer's transcript: the subtitle track, the panel beside the player. Part of the one dictionary, `ru` in ./ru.ts. */
export const transcripts = {
  title: "Расшифровка",
  /** The toggle of the player's subtitle track. */
  subtitles: "Субтитры",
  /** The track's label in the player's own captions menu. */
  trackLabel: (language: string) => (language ? `Расшифровка (${language})` : "Расшифровка"),
  source: { import: "из файла", asr: "распознана", edit: "исправлена" } as Record<string, string>,
  search: "Поиск по расшифровке",
  found: (n: number, total: number) => `${n} из ${total}`,
  nothingFound: "Ничего не найдено",
  segments: "Фрагменты расшифровки",
  seek: (time: string) => `Перейти к ${time}`,
  edit: "Исправить",
  editText: "Текст фрагмента",
  save: "Сохранить",
  cancel: "Отмена",
  saved: "Расшифровка сохранена",
  empty: "У этой версии нет расшифровки",
  /** Copies the previous version's transcript onto the shown one (issue 39). */
  copy: "Перенести расшифровку",
  copyHint: (version: number) => `Из версии ${version}`,
  copied: "Расшифровка перенесена",
  recognize: "Распознать",
  recognizeStarted: "Задача «Расшифровка» запущена",
  notConfigured: "Распознавание речи не настроено",
};
