/** Sub-accounts (spec §3 Subaccount, §6): `fbox.user` index, create, edit, deleted, getrule, getrealip. */
export const accountEndpoints = {} as const;
