import { describe, expect, it } from "vitest";
import { claimGrantsAdmin, ssoProviders } from "../../functions/sso/config";

/** SSO_PROVIDERS parsing and admin_claim matching (functions/sso/config.ts), as the README documents them. */

describe("ssoProviders", () => {
  it("adds openid to the scopes, accepts a space-separated string and trims the issuer's slash", () => {
    const [google, kc] = ssoProviders({
      SSO_PROVIDERS: JSON.stringify([
        {
          name: "google",
          title: "Google",
          issuer: "https://accounts.google.com/",
          client_id: "a",
          client_secret: "b",
          scopes: "email profile",
          link_by_email: true,
        },
        { name: "kc", title: "Keycloak", issuer: "https://sso.example.com/realms/corp", client_id: "c", client_secret: "d" },
      ]),
    });
    expect(google).toMatchObject({ issuer: "https://accounts.google.com", scopes: ["openid", "email", "profile"], linkByEmail: true });
    expect(kc).toMatchObject({ scopes: ["openid", "email", "profile"], linkByEmail: false });
  });

  it("offers nothing for a malformed list, a missing field or duplicate names", () => {
    const one = { name: "x", title: "X", issuer: "https://idp.example", client_id: "a", client_secret: "b" };
    expect(ssoProviders({ SSO_PROVIDERS: "{not json" })).toEqual([]);
    expect(ssoProviders({ SSO_PROVIDERS: JSON.stringify([{ ...one, client_secret: undefined }]) })).toEqual([]);
    expect(ssoProviders({ SSO_PROVIDERS: JSON.stringify([one, one]) })).toEqual([]);
    expect(ssoProviders({ SSO_PROVIDERS: JSON.stringify([{ ...one, name: "has space" }]) })).toEqual([]);
    expect(ssoProviders({ SSO_PROVIDERS: JSON.stringify([{ ...one, allowed_domains: ["@corp.test"] }]) })).toEqual([]);
    expect(ssoProviders({ SSO_PROVIDERS: JSON.stringify([{ ...one, allowed_domains: [] }]) })).toEqual([]);
  });

  it("reads the allowlist: domains lower-cased, the required claim as written; none by default", () => {
    const one = { name: "y", title: "Y", issuer: "https://idp.example", client_id: "a", client_secret: "b" };
    expect(
      ssoProviders({ SSO_PROVIDERS: JSON.stringify([{ ...one, allowed_domains: [" Corp.Example "], required_claim: "groups=mam" }]) })[0],
    ).toMatchObject({
      allowedDomains: ["corp.example"],
      requiredClaim: "groups=mam",
    });
    expect(ssoProviders({ SSO_PROVIDERS: JSON.stringify([one]) })[0]).toMatchObject({ allowedDomains: [], requiredClaim: undefined });
  });
});

describe("claimGrantsAdmin", () => {
  it("needs a configured claim", () => {
    expect(claimGrantsAdmin({ admin: true }, undefined)).toBe(false);
  });

  it("'claim' grants only for the value true", () => {
    expect(claimGrantsAdmin({ mam_admin: true }, "mam_admin")).toBe(true);
    expect(claimGrantsAdmin({ mam_admin: "true" }, "mam_admin")).toBe(false);
    expect(claimGrantsAdmin({}, "mam_admin")).toBe(false);
  });

  it("'claim=value' matches a string or an element of a list, walking dotted paths (Keycloak realm roles)", () => {
    const claims = { realm_access: { roles: ["user", "mam-admin"] }, hd: "example.com" };
    expect(claimGrantsAdmin(claims, "realm_access.roles=mam-admin")).toBe(true);
    expect(claimGrantsAdmin(claims, "realm_access.roles=other")).toBe(false);
    expect(claimGrantsAdmin(claims, "hd=example.com")).toBe(true);
    expect(claimGrantsAdmin(claims, "missing.path=x")).toBe(false);
  });
});
