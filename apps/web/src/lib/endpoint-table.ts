/** The endpoint table, in a chunk of its own: `call()` loads it with the first request. */
export { endpoints } from '@fbox/contracts';
