import { useCheapPasswordHashingForTests } from '../lib/password.js';

// Every server test file: accounts hash at Argon2's smallest cost (the production cost is covered
// by lib/password.test.ts, which hashes and verifies with it explicitly).
useCheapPasswordHashingForTests();
