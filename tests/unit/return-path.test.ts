import { describe, expect, it } from "vitest";
import { safeReturnPath } from "../../shared/lib/return-path";

const APP = "https://mam.example.com";

describe("safeReturnPath: a sign-in only ever lands inside the app", () => {
  it.each([
    "/%09/evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/%0a/evil.example",
    "/%250d/evil.example",
    "//evil",
    "//evil.example/mam",
    "///evil.example",
    "/\\evil",
    "/\\/evil.example",
    "/%5Cevil.example",
    "/%2F%2Fevil.example",
    "/%252F%252Fevil.example",
    "https://evil",
    "https://mam.example.com.evil.example/mam",
    "http:evil.example",
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "mam",
    "/login",
    "/login?to=/jobs",
    "/login/",
    "",
    null,
    undefined,
    `/${"a".repeat(2100)}`,
  ])("%j goes home", (to) => {
    expect(safeReturnPath(to, APP)).toBe("/mam");
    expect(safeReturnPath(to)).toBe("/mam");
  });

  it.each([
    "/jobs/5",
    "/mam/0b8e4a3c-0000-4000-8000-000000000000?view=grid#top",
    "/search?q=кот",
    "/search?q=%D0%BA%D0%BE%D1%82",
    "/search?q=100%25",
    "/search?q=a//b",
    "/logins-report",
    "/admin/user/7/actives",
  ])("%j is followed as it is", (to) => {
    expect(safeReturnPath(to, APP)).toBe(to);
  });
});
