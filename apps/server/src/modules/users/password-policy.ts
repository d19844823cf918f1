import { createRequire } from 'node:module';
import type { ZxcvbnFactory as Factory } from '@zxcvbn-ts/core';
import type { adjacencyGraphs as Graphs, dictionary as Dictionary } from '@zxcvbn-ts/language-common';

/**
 * Password rules of NIST SP 800-63B: a minimum length and a check against passwords known from breaches, with no
 * composition rules. The list is zxcvbn-ts's common-password dictionary (about 49,000 entries, MIT licence).
 */
const PASSWORD_MIN_LENGTH = 10;
/** scrypt takes any length; the cap only keeps a request from being needlessly expensive. */
const PASSWORD_MAX_LENGTH = 200;

let commonPasswords: Set<string> | null = null;

/** The list is read on the first password check, not at start: it holds memory a reading server does not need. */
function isCommonPassword(lowered: string): boolean {
  if (!commonPasswords) {
    const { dictionary } = createRequire(import.meta.url)('@zxcvbn-ts/language-common') as { dictionary: typeof Dictionary };
    commonPasswords = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  }
  return commonPasswords.has(lowered);
}

/** Why `password` is refused, or null when it is acceptable. `personal` holds the user's e-mail and names. */
export function passwordProblem(password: string, personal: (string | undefined)[] = []): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters`;
  const lowered = password.toLowerCase();
  if (isCommonPassword(lowered)) return 'This password is too common; choose one that is harder to guess';
  if (/^(.)\1+$/.test(password)) return 'This password is too easy to guess';
  for (const value of personal) {
    const v = value?.trim().toLowerCase();
    if (v && v.length >= 3 && (lowered === v || lowered === v.split('@')[0])) {
      return 'Do not use your e-mail or name as the password';
    }
  }
  return null;
}

/** zxcvbn's score (0-4) a staff password must reach: 3 is "safely unguessable" for an online attack and then some. */
export const STAFF_MIN_SCORE = 3;
let strength: Factory | null = null;

/**
 * Why `password` is refused for a staff (admin, super) account: the rules for everyone, then zxcvbn-ts's estimate
 * against its shipped dictionaries and the person's own e-mail and names (no network look-up).
 */
export function staffPasswordProblem(password: string, personal: (string | undefined)[] = []): string | null {
  const basic = passwordProblem(password, personal);
  if (basic) return basic;
  if (!strength) {
    const require = createRequire(import.meta.url);
    const { ZxcvbnFactory } = require('@zxcvbn-ts/core') as { ZxcvbnFactory: typeof Factory };
    const common = require('@zxcvbn-ts/language-common') as { dictionary: typeof Dictionary; adjacencyGraphs: typeof Graphs };
    strength = new ZxcvbnFactory({ dictionary: common.dictionary, graphs: common.adjacencyGraphs });
  }
  const inputs = personal.filter((v): v is string => typeof v === 'string' && v.length > 0);
  const { score } = strength.check(password, inputs);
  return score < STAFF_MIN_SCORE ? 'This password is too easy to guess for a staff account: use a longer passphrase of several unrelated words' : null;
}
