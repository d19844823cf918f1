/**
 * A secret for a command that is not on its command line (where shells keep it in their history and npm prints it
 * back): typed at a prompt that does not show it, or the first line of standard input when that is not a terminal
 * (`printf '%s\n' "$PASSWORD" | npm run admin -- create-super you@example.org`).
 */
export async function readSecret(prompt: string, input: NodeJS.ReadStream = process.stdin, output: NodeJS.WriteStream = process.stderr): Promise<string> {
  if (!input.isTTY) {
    let text = '';
    for await (const chunk of input) {
      text += String(chunk);
      if (text.includes('\n')) break;
    }
    return text.split(/\r?\n/)[0] ?? '';
  }
  output.write(prompt);
  input.setRawMode(true);
  input.resume();
  input.setEncoding('utf8');
  try {
    return await new Promise<string>((resolve, reject) => {
      let typed = '';
      const onData = (keys: string) => {
        for (const key of keys) {
          if (key === '\r' || key === '\n' || key === '\u0004') {
            input.off('data', onData);
            output.write('\n');
            return resolve(typed);
          }
          if (key === '\u0003') {
            input.off('data', onData);
            output.write('\n');
            return reject(new Error('cancelled'));
          }
          if (key === '\u007f' || key === '\b') typed = typed.slice(0, -1);
          else if (key >= ' ') typed += key;
        }
      };
      input.on('data', onData);
    });
  } finally {
    input.setRawMode(false);
    input.pause();
  }
}
