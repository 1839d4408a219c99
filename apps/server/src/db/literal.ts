/**
 * An integer the server computed (a time, an id bound), written into a statement as a literal:
 * PostgreSQL then knows its type where a bound parameter would be untyped. Anything else throws.
 */
export const integerLiteral = (n: number): string => {
  if (!Number.isSafeInteger(n)) throw new Error(`not an integer: ${n}`);
  return String(n);
};
