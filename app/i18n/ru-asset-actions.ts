import { plural } from "./plural";

/** The actions on an asset in the viewer and the asset info (decision 055). Part of the one dictionary, `ru` in ./ru.ts. */
export const assetActions = {
  newVersion: "Новая версия",
  newVersionQueued: (name: string) => `«${name}» загружается как новая версия`,
  dropVersion: "Отпустите файл: он станет новой версией",
  versionOf: (n: number, total: number) => `Версия ${n} из ${total}`,
  versionSwitcher: "Версия",
  latest: "последняя",
  oldVersion: (n: number) => `Показана версия ${n}, не последняя`,
  showLatest: "Показать последнюю",

  addVariant: "Добавить вариант",
  variantName: "Название варианта",
  variantFile: "Файл",
  variantPick: "Выбрать файл",
  variantUpload: "Загрузить",
  variantQueued: (name: string) => `Вариант «${name}» загружается`,
  cancel: "Отмена",

  rename: "Переименовать",
  renameHint: "Enter — сохранить, Esc — отменить",
  nameLabel: "Название файла",
  renamed: "Переименовано",
  save: "Сохранить",
  assetClass: "Класс",
  noClass: "Без класса",
  classChanged: "Класс изменён",

  more: "Ещё",
  copyTo: "Копировать в…",
  copyTarget: "Группа, куда скопировать",
  copy: "Копировать",
  copied: (n: number) => `${plural(n, ["Скопирован", "Скопировано", "Скопировано"])} ${n} ${plural(n, ["файл", "файла", "файлов"])}`,

  runTask: "Запустить задачу",
  runTaskFor: (n: number) => `Для ${n} ${plural(n, ["файла", "файлов", "файлов"])}`,
  profiles: "Профили прокси",
  tasks: "Задачи",
  noTasks: "Нет задач, применимых к этому файлу",
  appliesTo: (n: number, total: number) => `подходит к ${n} из ${total}`,
  start: "Запустить",
  started: (n: number) => `${plural(n, ["Запущена", "Запущено", "Запущено"])} ${n} ${plural(n, ["задача", "задачи", "задач"])}`,
  openJobs: "Открыть задачи",

  createEmpty: "Создать без файла",
  createEmptyHint: "Файл без содержимого: для метаданных; содержимое можно загрузить позже как первую версию.",
  createEmptyName: "Название",
  create: "Создать",
  createdEmpty: "Файл создан",

  versionsWho: "Кто",
  versionsWhen: "Когда",
};
