import { useSyncExternalStore } from 'react';
import type { JwtClaims, Role } from '@app/shared';
import { tellOfflineCopies } from './offline';

/** The token is kept in local storage under this key and sent as `Authorization: Bearer`. */
export const TOKEN_KEY = 'token';

interface Session {
  token: string;
  id: string;
  role: Role;
  name: string;
  exp: number;
}

function decode(token: string): Session | null {
  try {
    const part = token.split('.')[1];
    if (!part) return null;
    const json = decodeURIComponent(
      atob(part.replace(/-/g, '+').replace(/_/g, '/'))
        .split('')
        .map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
        .join(''),
    );
    const claims = JSON.parse(json) as Partial<JwtClaims>;
    if (typeof claims.id !== 'string' || typeof claims.exp !== 'number' || !claims.role) return null;
    return { token, id: claims.id, role: claims.role, name: claims.name ?? '', exp: claims.exp };
  } catch {
    return null;
  }
}

/** Expiry is compared in seconds. */
export const isExpired = (s: Session, nowMs = Date.now()) => s.exp <= Math.floor(nowMs / 1000);

let current: Session | null = null;
const listeners = new Set<() => void>();

function load(): Session | null {
  const token = typeof localStorage === 'undefined' ? null : localStorage.getItem(TOKEN_KEY);
  return token ? decode(token) : null;
}
current = load();
// A reader still signed in from before the service worker kept pages: it keeps none for them from now on.
if (current) void tellOfflineCopies(true);

function emit() {
  for (const l of listeners) l();
}

export const session = {
  get: () => current,
  /** Stores a token returned by sign-in. Returns false when it cannot be read. */
  signIn(token: string): boolean {
    const s = decode(token);
    if (!s) return false;
    localStorage.setItem(TOKEN_KEY, token);
    current = s;
    void tellOfflineCopies(true);
    emit();
    return true;
  },
  /** Removes the token and the current user (signing out). */
  clear() {
    localStorage.removeItem(TOKEN_KEY);
    current = null;
    void tellOfflineCopies(false);
    emit();
  },
  /** At start: a stored token past its expiry signs the user out. Returns true when that happened. */
  expireIfNeeded(): boolean {
    if (current && isExpired(current)) {
      session.clear();
      return true;
    }
    if (!current && localStorage.getItem(TOKEN_KEY)) {
      session.clear();
      return true;
    }
    return false;
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

if (typeof window !== 'undefined') {
  // Another tab signing in or out.
  window.addEventListener('storage', (e) => {
    if (e.key === TOKEN_KEY) {
      current = load();
      emit();
    }
  });
}

export function useSession(): Session | null {
  return useSyncExternalStore(session.subscribe, session.get, () => null);
}
