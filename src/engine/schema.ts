/**
 * The files users give (sheets, tables) and the JSON we store (contest states, trackers, …) are checked by zod
 * schemas, each next to the type it gives (`z.infer`). This is the one place a schema's issue becomes words: the
 * path as a file writes it (`skills[2].level`) and what is wrong there, each check carrying its own message.
 */
import { z } from 'zod';

/** `['skills', 2, 'level']` → `skills[2].level`; the top level is ''. */
export function pathText(path: readonly PropertyKey[]): string {
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`)).join('');
}

/** The first issue of a failed parse (in the order the schema reads the value): where it is and what is wrong. */
export function firstProblem(error: z.ZodError): { path: readonly PropertyKey[]; message: string } {
  const issue = error.issues[0]!;
  return { path: issue.path, message: issue.message };
}

/**
 * A check done by one of the engine's own functions, which throws its refusal (e.g. `validSkillLevel`): the refusal's
 * words, without their full stop, become the issue's message, so a file says what the command would.
 */
export function checkedBy<T>(check: (value: T) => unknown): (value: T, context: z.RefinementCtx) => void {
  return (value, context) => {
    try {
      check(value);
    } catch (error) {
      context.addIssue({ code: 'custom', message: (error as Error).message.replace(/\.$/, ''), input: value });
    }
  };
}

/**
 * The first issue, as `firstProblem` gives it, looking into a union none of whose shapes fit: the shape the value
 * went furthest into (its first issue lies deepest) answers, so a linked side missing a level names that level, not
 * the whole side. When no shape went further than the others, the union's own issue answers.
 */
export function closestProblem(error: z.ZodError): ReturnType<typeof firstProblem> {
  return closestIn(error.issues[0]!);
}

function closestIn(issue: z.core.$ZodIssue): ReturnType<typeof firstProblem> {
  if (issue.code === 'invalid_union') {
    const firsts = issue.errors.flatMap((shape) => (shape[0] ? [closestIn(shape[0])] : []));
    const depth = Math.max(...firsts.map((problem) => problem.path.length));
    const [deepest, ...asDeep] = firsts.filter((problem) => problem.path.length === depth);
    if (deepest && asDeep.length === 0) return { path: [...issue.path, ...deepest.path], message: deepest.message };
  }
  return { path: issue.path, message: issue.message };
}
