/** The workspaces of the installations phase: tenant `i`'s team ID, the same in the driver and the stand-in. */
export const installTeamId = (i: number): string => `T0I${String(i).padStart(6, '0')}`;
