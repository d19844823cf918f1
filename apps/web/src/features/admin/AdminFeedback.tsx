/** What an admin action answered: a status line when it worked, an alert when it did not. */
export interface Feedback {
  ok: boolean;
  text: string;
}

export function AdminFeedback({ feedback, testId }: { feedback: Feedback | null; testId?: string }) {
  if (!feedback) return null;
  return (
    <p className={feedback.ok ? 'admin-ok' : 'field-error'} role={feedback.ok ? 'status' : 'alert'} data-testid={testId}>
      {feedback.text}
    </p>
  );
}
