/**
 * The workspaces of the installations phase, named the same in the driver and the stand-in. Tenant 0 is
 * the one-installation bot's; tenants 1 … N the other's. Each side has as many people: tenant 0 has N
 * members, each other tenant one, so that both bots look up and act for as many distinct people.
 */
const pad = (i: number) => String(i).padStart(6, '0');

export const installTeamId = (i: number): string => `T0I${pad(i)}`;

/** Tenant `i`'s admin: installs the app there and connects its service account. */
export const installAdminId = (i: number): string => `U0A${pad(i)}`;

/** Tenant `i`'s channel, where its commands are typed. */
export const installChannelId = (i: number): string => `C0I${pad(i)}`;

/** The one who types tenant `i`'s commands (i ≥ 1), or the `j`-th member of tenant 0 (`oneTeamMemberId`). */
export const installMemberId = (i: number): string => `U0I${pad(i)}`;

/** The `j`-th of tenant 0's N members. */
export const oneTeamMemberId = (j: number): string => `U0P${pad(j)}`;
