/** Errors are values: a stable machine code and a message a person can act on. */
export interface EngineError<Code extends string = string> {
  code: Code;
  message: string;
}

export type Result<T, E extends EngineError = EngineError> = { ok: true; value: T } | { ok: false; error: E };

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function fail<Code extends string>(code: Code, message: string): { ok: false; error: EngineError<Code> } {
  return { ok: false, error: { code, message } };
}

/** Choices as a message names them: `"a", "b" or "c"` (`quote` false: `a, b or c`). */
export function oneOf(choices: readonly string[], quote = true): string {
  const names = choices.map((c) => (quote ? JSON.stringify(c) : c));
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
