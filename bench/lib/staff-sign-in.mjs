// A staff account's sign-in as the site asks it of staff (issue 54): the password, then a second factor. An account
// not yet enrolled enrols a TOTP secret with the token that allows only that, and signs in again with one of the
// recovery codes the enrolment answered (a TOTP code is never accepted twice, and the enrolment used this step's).
/**
 * @param {(method: string, path: string, body?: unknown, token?: string) => Promise<{ status: number, body: any }>} call
 * @returns {Promise<string>} a full session token
 */
export async function staffSignIn(call, email, password) {
  const signIn = async () => {
    const res = await call('POST', '/api/users/signin', { email, password });
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  let answer = await signIn();
  if (answer.token && !answer.enrolRequired) return answer.token;
  let recoveryCode = null;
  if (answer.enrolRequired) {
    const { Secret, TOTP } = await import('otpauth');
    const enrol = await call('POST', '/api/users/2fa/totp', {}, answer.token);
    if (enrol.status !== 200) throw new Error(`TOTP enrolment failed: ${enrol.status} ${JSON.stringify(enrol.body)}`);
    const code = new TOTP({ secret: Secret.fromBase32(enrol.body.secret) }).generate();
    const confirm = await call('POST', '/api/users/2fa/totp/confirm', { code }, answer.token);
    if (confirm.status !== 200) throw new Error(`TOTP confirmation failed: ${confirm.status} ${JSON.stringify(confirm.body)}`);
    recoveryCode = confirm.body.recoveryCodes[0];
    answer = await signIn();
  }
  if (!answer.twoFactorRequired || !recoveryCode) throw new Error(`the sign-in asked for a second factor this helper does not hold: ${JSON.stringify(answer)}`);
  const second = await call('POST', '/api/users/signin/2fa', { challenge: answer.challenge, code: recoveryCode });
  if (second.status !== 200) throw new Error(`the second factor was refused: ${second.status} ${JSON.stringify(second.body)}`);
  return second.body.token;
}

/** `call` over fetch, for a site at `baseUrl`. */
export const fetchCall = (baseUrl) => async (method, path, body, token) => {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => ({})) };
};
