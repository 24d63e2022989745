import { beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../app/lib/api";
import { applyServerErrors } from "../../app/lib/form-errors";
import { showError } from "../../app/lib/notify";

vi.mock("../../app/lib/notify", () => ({ showError: vi.fn() }));

const refusal = (status: number, details?: { field: string; message: string }[]) =>
  new ApiError(status, { error: { code: "validation", message: "Неверные данные", details } }, "Неверные данные");

function formOf(values: object) {
  return { getValues: () => values, setErrors: vi.fn() };
}

beforeEach(() => vi.mocked(showError).mockClear());

describe("applyServerErrors", () => {
  it("puts a 4xx's field-named message on that field of the form, and no toast", () => {
    const form = formOf({ shares: [{ subject: "x" }], name: "" });
    applyServerErrors(form, refusal(400, [{ field: "shares.0.subject", message: "нет такого пользователя" }]));
    expect(form.setErrors).toHaveBeenCalledWith({ "shares.0.subject": "нет такого пользователя" });
    expect(showError).not.toHaveBeenCalled();
  });

  it("renames the payload's field to the form's", () => {
    const form = formOf({ expires: "" });
    applyServerErrors(form, refusal(400, [{ field: "expires_at", message: "в прошлом" }]), (f) => (f === "expires_at" ? "expires" : null));
    expect(form.setErrors).toHaveBeenCalledWith({ expires: "в прошлом" });
  });

  it("toasts when no detail names a field of the form, or the error is not a 4xx", () => {
    const form = formOf({ name: "" });
    const errors = [
      refusal(400, [{ field: "other", message: "нет" }]),
      refusal(409),
      new ApiError(500, null, "Внутренняя ошибка"),
      new Error("сеть"),
    ];
    for (const err of errors) applyServerErrors(form, err);
    expect(form.setErrors).not.toHaveBeenCalled();
    expect(vi.mocked(showError).mock.calls.map(([err]) => err)).toEqual(errors);
  });
});
