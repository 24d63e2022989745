import type { PluralForms } from "./plural";

/** «Удалённые» (/trash), the contents filter and the admin actions of issue 36: deleting a user, editing a rule, task templates. */

const assetsWord: PluralForms = ["файл", "файла", "файлов"];
const groupsWord: PluralForms = ["группа", "группы", "групп"];

export const trash = {
  nav: "Удалённые",
  title: "Удалённые",
  empty: "Удалённых групп нет",
  columns: { name: "Группа", place: "Где была", deletedAt: "Удалена", deletedBy: "Кто удалил", size: "Содержимое", actions: "" },
  topLevel: "Верхний уровень",
  unknownUser: "Удалённый пользователь",
  restore: "Восстановить",
  restored: (name: string) => `Группа «${name}» восстановлена`,
  purge: "Удалить навсегда",
  purged: (name: string) => `Группа «${name}» удалена навсегда`,
  assetsWord,
  groupsWord,
  /** The confirmation says exactly what goes: the figures come from GET /api/group/deleted. */
  purgeText: (name: string, groups: string, assets: string, bytes: string) =>
    `Группа «${name}» будет удалена без возможности восстановления. Вместе с ней уйдут: ${groups}; ${assets} (${bytes}) — их нет в других группах.`,
  purgeNoAssets: (name: string, groups: string) =>
    `Группа «${name}» будет удалена без возможности восстановления. Вместе с ней уйдут: ${groups}; файлов, которых нет в других группах, в ней нет.`,
  cancel: "Отмена",
  more: "Показать ещё",
  filter: "Фильтр по имени",
};

export const adminExtra = {
  deleteUser: {
    button: "Удалить пользователя",
    title: "Удалить пользователя?",
    text: (name: string) => `Пользователь «${name}» будет удалён, его сеансы, API-токены и пароли приложений перестанут действовать.`,
    heir: "Кому передать его файлы, группы и автоматизации",
    heirHint: "По умолчанию — вам",
    confirm: "Удалить",
    cancel: "Отмена",
    deleted: (name: string) => `Пользователь «${name}» удалён`,
  },
  editRule: {
    button: "Изменить",
    title: "Изменить права",
    save: "Сохранить",
    saved: "Права изменены",
  },
  templates: {
    title: "Шаблоны задач",
    create: "Новый шаблон",
    createTitle: "Новый шаблон задачи",
    editTitle: "Шаблон задачи",
    edit: "Изменить",
    save: "Сохранить",
    cancel: "Отмена",
    created: "Шаблон создан",
    saved: "Шаблон сохранён",
    empty: "Шаблонов нет",
    columns: { name: "Название", operation: "Операция", state: "Состояние", actions: "" },
    name: "Название",
    operation: "Операция",
    setup: "Настройки (JSON)",
    setupHint: "Поля настроек операции; пустые берутся по умолчанию",
    badJson: "не разбирается как JSON-объект",
    disabled: "Выключен",
    enabled: "Включён",
    disabledLabel: "Выключить шаблон",
    operations: {
      metadata: "Метаданные",
      preview: "Превью",
      proxy: "Прокси-видео",
      audio_proxy: "Прокси-аудио",
      document_proxy: "Прокси документа",
      watermark: "Водяной знак",
      text: "Текст",
      transcribe: "Расшифровка речи",
    } as Record<string, string>,
  },
};
