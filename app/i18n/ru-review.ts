import { plural } from "./plural";

/** The viewer's review: comments at frames beside the player, the approval bar (issue 38). Part of the one dictionary, `ru` in ./ru.ts. */
export const review = {
  title: "Комментарии",
  /** The button that adds a comment at the current frame (key C), as the issue names it. */
  comment: "Комментарий",
  commentText: "Текст комментария",
  placeholderTimed: "Комментарий к текущему кадру (клавиша C)",
  placeholder: "Комментарий к файлу",
  at: (timecode: string) => `на ${timecode}`,
  keysHint: "C — комментарий; «,» и «.» — кадр назад и вперёд",
  added: "Комментарий добавлен",
  list: "Комментарии к версии",
  none: "Комментариев пока нет",
  noneFiltered: "Под этот фильтр комментарии не подходят",
  filter: "Показать комментарии",
  filters: { all: "Все", open: "Открытые", resolved: "Решённые", mine: "Мои" },
  seek: (timecode: string) => `Перейти к ${timecode}`,
  unknownAuthor: "Неизвестный автор",
  resolvedBadge: "Решён",
  replies: (n: number) => `${n} ${plural(n, ["ответ", "ответа", "ответов"])}`,
  reply: "Ответить",
  replyText: "Текст ответа",
  send: "Отправить",
  cancel: "Отмена",
  resolve: "Решено",
  reopen: "Открыть снова",
  delete: "Удалить комментарий",
  deleteConfirm: "Удалить комментарий вместе с ответами?",
  /** Who else has the version open now (the live room), and at which paused frame. */
  watching: "Сейчас смотрят",
  watchingAt: (name: string, timecode: string) => `${name} (${timecode})`,
  markers: "Комментарии на шкале времени",
  approval: {
    title: "Согласование",
    status: {
      pending: "Ожидает",
      approved: "Одобрено",
      changes_requested: "Нужны правки",
      rejected: "Отклонено",
    } as Record<string, string>,
    approve: "Одобрить",
    requestChanges: "Нужны правки",
    reviewers: "Рецензенты",
    noReviewers: "Рецензенты не назначены",
    notRequested: "без запроса",
    decided: "Решение сохранено",
    forbidden: "Решение принимают рецензенты, которых об этом попросили, или те, у кого есть право изменять файл",
  },
  /** Drawing on the paused frame or the picture; the drawing goes with the next comment. */
  draw: {
    title: "Рисование на кадре",
    tools: { rect: "Прямоугольник", ellipse: "Эллипс", arrow: "Стрелка", path: "Линия", text: "Текст" } as Record<string, string>,
    color: (hex: string) => `Цвет ${hex}`,
    count: (n: number) => `${n} ${plural(n, ["фигура", "фигуры", "фигур"])} в комментарии`,
    undo: "Отменить фигуру",
    clear: "Стереть рисунок",
    textLabel: "Текст надписи",
    textHint: "Напишите и щёлкните по кадру",
    canvas: "Рисунок на кадре",
    shown: "Рисунок комментария",
  },
  /** The comment only the team sees (guests of review links never do). */
  internal: "Только для команды",
  internalBadge: "Для команды",
  /** A range: the comment from its frame (or the marked start, key I) to the marked end (key O). */
  range: {
    markIn: "Отметить начало",
    markOut: "Отметить конец",
    clear: "Без диапазона",
    shown: (from: string, to: string) => `${from} – ${to}`,
  },
  keysHintMore: "J, K, L — назад, стоп, вперёд (ещё раз — быстрее); I и O — начало и конец диапазона",
  exporting: {
    title: "Экспорт",
    dropFrame: "Drop-frame в EDL",
  },
};
