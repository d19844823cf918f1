/**
 * Small icons drawn inline (no font needed: emoji glyphs show as empty boxes on devices without an emoji font).
 * Decorative: the control they sit in carries the words.
 */
const svg = { viewBox: '0 0 16 16', width: 16, height: 16, 'aria-hidden': true, focusable: false } as const;

export const LockIcon = ({ size = 16 }: { size?: number }) => (
  <svg {...svg} width={size} height={size}>
    <path d="M4 7V5a4 4 0 0 1 8 0v2h1v8H3V7h1zm2 0h4V5a2 2 0 0 0-4 0v2z" fill="currentColor" />
  </svg>
);

export const UnlockIcon = ({ size = 16 }: { size?: number }) => (
  <svg {...svg} width={size} height={size}>
    <path d="M6 7V5a2 2 0 0 1 3.9-.6l1.9-.6A4 4 0 0 0 4 5v2H3v8h10V7H6z" fill="currentColor" />
  </svg>
);

export const TrashIcon = ({ size = 16 }: { size?: number }) => (
  <svg {...svg} width={size} height={size}>
    <path d="M6 1h4l1 1h3v2H2V2h3l1-1zM3 5h10l-1 10H4L3 5zm3 2v6h1V7H6zm3 0v6h1V7H9z" fill="currentColor" />
  </svg>
);
