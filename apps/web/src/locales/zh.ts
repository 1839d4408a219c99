import { zhConsole } from './zh-console';
import { zhCore } from './zh-core';

/** Chinese texts: zh-core.ts and zh-console.ts, each typed against its English part. */
export const zh = { ...zhCore, ...zhConsole };
