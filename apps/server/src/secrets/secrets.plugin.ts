import fp from 'fastify-plugin';
import { SecretBox } from '../lib/secret-box.js';
import { loadOrCreateKeyFile } from '../lib/secret-key.js';
import { resealSecrets } from './reseal.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Seals secrets before they are stored and opens them where the server needs them. */
    secrets: SecretBox;
  }
}

/**
 * The key of stored secrets: SECRET_KEY, else DATA_DIR/secret.key (made on first start). Before
 * anything reads a secret, values from before encryption or under SECRET_KEY_PREVIOUS are sealed
 * under the current key; a value no given key opens stops start-up with a line naming its key id.
 * Needs the db plugin.
 */
export const secretsPlugin = fp(
  async (app) => {
    let key = app.config.secretKey;
    if (!key) {
      const file = loadOrCreateKeyFile(app.config.dataDir);
      key = file.key;
      if (file.created) {
        app.log.warn(
          `generated the secret key ${file.path}: back it up (stored secrets cannot be read without it); several server processes must share one SECRET_KEY instead`,
        );
      }
    }
    const box = new SecretBox([key, ...app.config.previousSecretKeys]);
    const rewritten = await resealSecrets(app.db, box);
    if (rewritten > 0)
      app.log.info({ rewritten }, `encrypted ${rewritten} stored secrets with key ${box.keyId}`);
    app.decorate('secrets', box);
  },
  { name: 'secrets', dependencies: ['db'] },
);
