const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => escapes[character] ?? character);

/** No script, no external resource, forms post only back here; nothing on these pages is worth caching. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
};

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body>
<h1>${escapeHtml(title)}</h1>
${content}
</body>
</html>
`;
}

/** The code form: the developer types the code their terminal shows and the email they sign in with. */
export function activatePage(sessionId: string, problem?: string): string {
  const warning = problem === undefined ? '' : `<p role="alert">${escapeHtml(problem)}</p>\n`;
  return page(
    'Sign in to the gateway CLI',
    `${warning}<form method="post" action="/sso/cli/authorize">
<input type="hidden" name="id" value="${escapeHtml(sessionId)}">
<label>Code shown in your terminal <input name="user_code" autocomplete="off" autocapitalize="characters" required></label>
<label>Email <input name="email" type="email" autocomplete="email" required></label>
<button type="submit">Continue</button>
</form>`,
  );
}

export function messagePage(title: string, text: string): string {
  return page(title, `<p>${escapeHtml(text)}</p>`);
}
