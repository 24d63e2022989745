/**
 * Every user-facing string of the front end. Strings quoted by the product spec are copied exactly;
 * screens import `ru` and never hard-code Russian text.
 */

export type PluralForms = readonly [one: string, few: string, many: string];

/**
 * Russian plural form of an integer: 1, 21, 101 → one; 2–4, 22–24 → few; 0, 5–20, 11–14, 25 → many.
 * Non-integers take the "few" form, as Russian does for fractions ("1,5 файла").
 */
export function plural(count: number, forms: PluralForms): string {
  const [one, few, many] = forms;
  if (!Number.isInteger(count)) return few;
  const n = Math.abs(count);
  const lastTwo = n % 100;
  const last = n % 10;
  if (last === 1 && lastTwo !== 11) return one;
  if (last >= 2 && last <= 4 && (lastTwo < 12 || lastTwo > 14)) return few;
  return many;
}

export const ru = {
  app: {
    name: "Медиа-архив",
    loading: "Загрузка…",
  },
  nav: {
    files: "Файлы",
    search: "Поиск",
    jobs: "Задачи",
    automations: "Автоматизации",
    admin: "Администрирование",
    logout: "Выйти",
  },
  pages: {
    mam: "Файлы",
    group: "Группа",
    fileViewer: "Просмотр файла",
    asset: "Информация о файле",
    admin: "Администрирование",
    access: "Доступ",
    activeUsers: "Активные пользователи",
    inactiveUsers: "Неактивные пользователи",
    groups: "Группы",
    groupUsers: "Пользователи группы",
    groupActives: "Права группы",
    user: "Пользователь",
    userGroups: "Группы пользователя",
    userActives: "Права пользователя",
    metadata: "Метаданные",
    metadataItem: "Поле метаданных",
    jobs: "Задачи",
    job: "Журнал задачи",
    automations: "Автоматизации",
    automation: "Автоматизация",
    search: "Поиск",
    shop: "Магазин",
    shortLink: "Просмотр по ссылке",
    editor: "Редактор документа",
    placeholder: "Раздел в разработке.",
  },
  tabs: {
    users: "Пользователи",
    groups: "Группы",
    actives: "Права",
  },
  login: {
    title: "Вход",
    user: "Логин",
    passwd: "Пароль",
    submit: "Войти",
    ssoDivider: "или войти через",
    required: "Обязательное поле",
  },
  errors: {
    title: "Ошибка",
    unknown: "Неизвестная ошибка",
    http: (code: number, message: string) => `HTTP ${code}: ${message}`,
    network: "Нет связи с сервером",
    versionFetch: "Не удалось загрузить версию",
    notFoundTitle: "Страница не найдена",
    notFoundText: "Такой страницы нет. Проверьте адрес или вернитесь к файлам.",
    crashTitle: "Что-то пошло не так",
    crashText: "Произошла непредвиденная ошибка. Попробуйте обновить страницу.",
    toFiles: "К файлам",
  },
  toast: {
    copy: "Копировать текст",
    copied: "Скопировано",
    close: "Закрыть",
  },
  version: {
    title: "Доступна новая версия",
    text: "Приложение обновилось. Перезагрузите страницу, чтобы перейти на новую версию.",
    reload: "Обновить",
    later: "Позже",
  },
  uploads: {
    title: "Загрузки",
    leaveWarning: "Вы действительно хотите уйти? Несохраненные данные будут потеряны.",
    files: ["файл", "файла", "файлов"] as PluralForms,
    status: {
      waiting: "В очереди",
      uploading: "Загружается",
      uploaded: "Загружен",
      saving: "Сохраняется",
      busy: "Обрабатывается",
      completed: "Готово",
      error: "Ошибка",
    },
  },
  share: {
    pageTitle: "Просмотр по ссылке",
    passwordTitle: "Файл защищён паролем",
    passwordHint: "Введите пароль, который вам сообщил отправитель.",
    password: "Пароль",
    open: "Открыть",
    wrongPassword: "Неверный пароль",
    throttled: "Слишком много неверных паролей. Повторите позже.",
    download: "Скачать",
    downloadProxy: "Скачать облегчённую версию",
    noPreview: "Предпросмотр для этого файла недоступен.",
    noContent: "У файла пока нет содержимого.",
    expiresAt: (date: string) => `Ссылка действует до ${date}`,
    unavailable: {
      unknown: "Ссылка не найдена. Проверьте адрес.",
      scheduled: "Ссылка ещё не действует. Попробуйте позже.",
      expired: "Срок действия ссылки истёк.",
      revoked: "Ссылка отозвана отправителем.",
      exhausted: "Лимит скачиваний по ссылке исчерпан.",
      inactive: "Ссылка больше не действует.",
    },
    unavailableTitle: "Ссылка недоступна",
    panel: {
      title: "Поделиться",
      create: "Создать ссылку",
      acl: "Что разрешено",
      aclView: "Просмотр",
      aclDownloadOriginal: "Скачивание оригинала",
      aclDownloadProxy: "Скачивание прокси",
      password: "Пароль (необязательно)",
      start: "Начало действия",
      end: "Окончание действия",
      emails: "Отправить на почту (через запятую)",
      downloadLimit: "Лимит скачиваний",
      created: "Ссылка создана",
      copy: "Копировать ссылку",
      copied: "Скопировано",
      revoke: "Отозвать",
      revoked: "Ссылка отозвана",
      empty: "Ссылок пока нет.",
      views: "Просмотры",
      downloads: "Скачивания",
      withPassword: "с паролем",
      noAccess: "Создавать ссылки можно с правом «acl» на файл.",
      states: { active: "Действует", scheduled: "Ещё не началась", expired: "Истекла", revoked: "Отозвана", exhausted: "Лимит исчерпан" },
    },
  },
  jobs: {
    empty: "Задач нет",
    loading: "Загрузка задач…",
    filters: { status: "Статус", template: "Шаблон", owner: "Владелец", me: "(вы)", entity: "ID файла или варианта", all: "Все" },
    columns: { num: "№", status: "Статус", progress: "Прогресс", entity: "Файл", template: "Шаблон", owner: "Владелец", times: "Время", priority: "Приоритет", actions: "Действия" },
    status: { none: "Создана", inqueue: "В очереди", running: "Выполняется", paused: "Приостановлена", canceled: "Отменена", done: "Готово", error: "Ошибка" },
    commands: { pause: "Приостановить", resume: "Продолжить", cancel: "Отменить", restart: "Перезапустить" },
    commandDone: "Команда выполнена",
    scheduled: "Создана",
    started: "Начата",
    stopped: "Завершена",
    priorityUp: "Повысить приоритет",
    priorityDown: "Понизить приоритет",
    total: ["задача", "задачи", "задач"] as PluralForms,
    prev: "Назад",
    next: "Дальше",
    live: "Обновляется автоматически",
    details: "Подробности",
    log: "Журнал",
    logEmpty: "Журнал пуст",
    follow: "Следить за журналом",
    result: "Результат",
    error: "Ошибка",
    worker: "Исполнитель",
    back: "Ко всем задачам",
    notFound: "Задача не найдена",
    openAsset: "Открыть файл",
  },
  // Sections filled by the screens that use them (kept apart so parallel work merges cleanly).
  admin: {
    // The admin area: users, robots and tokens, groups and membership, access rules.
  },

  mam: {
    // The asset browser: group tree and group contents.
  },

  viewer: {
    // The file viewer and the asset info screen.
  },

  upload: {
    // The upload queue, drop zone and status panel.
  },

  sso: {
    // Single sign-on.
  },

  units: {
    bytes: "байт",
    kb: "КБ",
    mb: "МБ",
    gb: "ГБ",
    tb: "ТБ",
  },
} as const;
