/** Query keys of the FBOX configuration feature. */
export const fboxConfigKeys = {
  all: ['fbox-config'] as const,
  defaults: (areaId: number) => [...fboxConfigKeys.all, 'defaults', areaId] as const,
  detail: (areaId: number, id: number) => [...fboxConfigKeys.all, 'detail', areaId, id] as const,
  command: (id: string) => [...fboxConfigKeys.all, 'command', id] as const,
  overclock: () => [...fboxConfigKeys.all, 'overclock'] as const,
};
